import { DateTime } from 'luxon';
import { HOUR_MS, HourOffsets } from '../../../src/policy/time/hour-offsets';
import { describeLocal, localTime } from '../../../src/policy/time/zone';
import { decide } from '../../../src/policy/engine/decide';
import { bundleFrom } from '../../helpers/bundle-from';
import { preflightWith } from '../../helpers/fixtures';
import { NOW, policyDocument } from '../../helpers/decide-harness';

/** A fake tz source: `before` minutes east until `change`, `after` from then on, counting the questions. */
function switching(change: number, before: number, after: number) {
  const asked: number[] = [];
  const offsetOf = (ms: number) => {
    asked.push(ms);
    return Math.floor(ms / 1000) * 1000 < change ? before : after;
  };
  return { offsets: new HourOffsets(offsetOf), asked };
}

const HOUR = Date.parse('2026-03-29T01:00:00Z');

describe('a zone offset asked once per hour without a change (HourOffsets)', () => {
  test('an hour without a change: its first and last second asked, then every instant of it answered from them', () => {
    const { offsets, asked } = switching(HOUR + 10 * HOUR_MS, 60, 120);
    for (let ms = HOUR; ms < HOUR + HOUR_MS; ms += 6_000) expect(offsets.at(ms)).toBe(60);
    expect(offsets.at(HOUR + HOUR_MS - 1)).toBe(60);
    expect(asked).toEqual([HOUR, HOUR + HOUR_MS - 1000]);
  });

  test('an hour with a change inside: each instant asked, on either side of the change', () => {
    const change = HOUR + 30 * 60_000;
    const { offsets, asked } = switching(change, 600, 630);
    expect(offsets.at(change - 1)).toBe(600);
    expect(offsets.at(change)).toBe(630);
    expect(offsets.at(change - 1)).toBe(600);
    expect(asked.filter((ms) => ms === change - 1 || ms === change)).toEqual([change - 1, change, change - 1]);
  });

  test('a change at the first second of an hour belongs to that hour: the hour before keeps its offset', () => {
    const { offsets } = switching(HOUR, 60, 120);
    expect(offsets.at(HOUR - 1)).toBe(60);
    expect(offsets.at(HOUR)).toBe(120);
    expect(offsets.at(HOUR - HOUR_MS)).toBe(60);
    expect(offsets.at(HOUR + HOUR_MS - 1)).toBe(120);
  });

  test('one hour is remembered: going back to another asks again, and answers the same', () => {
    const { offsets, asked } = switching(HOUR, 60, 120);
    const answers = [HOUR - 1, HOUR, HOUR - 1, HOUR].map((ms) => offsets.at(ms));
    expect(answers).toEqual([60, 120, 60, 120]);
    expect(asked).toHaveLength(8);
  });

  test('the last hour a Date holds is asked about within its range', () => {
    const { offsets, asked } = switching(0, 0, 0);
    expect(offsets.at(8.64e15)).toBe(0);
    expect(Math.max(...asked)).toBe(8.64e15);
  });
});

/** Zones with DST, half-hour DST (Lord Howe), 45-minute offsets, negative DST (Dublin), DST of two hours (Troll), Ramadan breaks (Casablanca). */
const ZONES = [
  'Europe/Berlin',
  'America/New_York',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'Europe/Dublin',
  'Antarctica/Troll',
  'Africa/Casablanca',
  'America/Santiago',
  'America/St_Johns',
];

const luxonOffset = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).offset;

/** The instants (to the second) where the zone's offset changes in [from, to), by luxon: found every 6 hours (changes are days apart), then bisected. */
function transitions(zone: string, from: number, to: number): number[] {
  const found: number[] = [];
  const step = 6 * HOUR_MS;
  for (let a = from; a < to; a += step) {
    if (luxonOffset(a, zone) === luxonOffset(a + step, zone)) continue;
    let lo = a;
    let hi = a + step;
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (luxonOffset(mid, zone) === luxonOffset(lo, zone)) lo = mid;
      else hi = mid;
    }
    found.push(hi);
  }
  return found;
}

const SINCE = Date.parse('2026-01-01T00:00:00Z');
const UNTIL = Date.parse('2031-01-01T00:00:00Z');
/** Kathmandu has had no change since 1986 (+05:30 -> +05:45): that one is swept too. */
const KATHMANDU_1986 = transitions(
  'Asia/Kathmandu',
  Date.parse('1985-12-01T00:00:00Z'),
  Date.parse('1986-02-01T00:00:00Z'),
);
const AROUND = [
  -HOUR_MS - 1,
  -HOUR_MS,
  -HOUR_MS + 1000,
  -1_800_000,
  -60_000,
  -1001,
  -1000,
  -1,
  0,
  1,
  999,
  1000,
  1_800_000,
  HOUR_MS - 1000,
  HOUR_MS,
];

/** Each transition's neighbourhood, and the first and last millisecond of the UTC hours around it. */
function sweep(changes: readonly number[]): number[] {
  return changes.flatMap((t) => {
    const hour = Math.floor(t / HOUR_MS) * HOUR_MS;
    return [...AROUND.map((d) => t + d), hour - 1, hour, hour + HOUR_MS - 1, hour + HOUR_MS];
  });
}

const luxonText = (ms: number, zone: string) => {
  const t = DateTime.fromMillis(ms, { zone });
  return `${t.toFormat('ccc yyyy-MM-dd HH:mm')} ${t.zoneName} (UTC${t.toFormat('ZZ')})`;
};

describe('the wall clock around every change of offset in 2026-2030: the same as luxon reads the tz data', () => {
  test('the sweep finds the changes it is meant to (DST both ways, Lord Howe by 30 minutes, Kathmandu in 1986)', () => {
    expect(transitions('Europe/Berlin', SINCE, UNTIL)).toHaveLength(10);
    const lordHowe = transitions('Australia/Lord_Howe', SINCE, UNTIL);
    expect(lordHowe.length).toBeGreaterThanOrEqual(9);
    const lordHoweChange = (t: number) =>
      Math.abs(luxonOffset(t, 'Australia/Lord_Howe') - luxonOffset(t - 1, 'Australia/Lord_Howe'));
    expect(new Set(lordHowe.map(lordHoweChange))).toEqual(new Set([30]));
    expect(KATHMANDU_1986).toHaveLength(1);
    expect(luxonOffset(KATHMANDU_1986[0], 'Asia/Kathmandu')).toBe(345);
  });

  test.each(ZONES)('%s: ascending, descending and from a cold hour, each instant reads as luxon reads it', (zone) => {
    const instants = sweep(zone === 'Asia/Kathmandu' ? KATHMANDU_1986 : transitions(zone, SINCE, UNTIL));
    for (const order of [instants, [...instants].reverse()]) {
      for (const ms of order)
        expect([ms, describeLocal(localTime(new Date(ms), zone))]).toEqual([ms, luxonText(ms, zone)]);
    }
    // Each instant right after an instant in another hour and another season.
    for (const ms of instants) {
      localTime(new Date(ms + 180 * 24 * HOUR_MS), zone);
      expect([ms, describeLocal(localTime(new Date(ms), zone))]).toEqual([ms, luxonText(ms, zone)]);
    }
  });
});

describe('decisions around every change of offset: the same whichever instant was decided before', () => {
  // Windows whose edges sit on the local hours a change skips or repeats.
  const files = Object.fromEntries(
    ZONES.map((zone, i) => [
      `w${i}.yaml`,
      policyDocument(
        `timeWindow: { timeZone: ${zone}, allowed: [{ days: [Mon-Sun], from: "01:30", to: "02:30" }, { days: [Mon-Sun], from: "03:00", to: "03:15" }] }`,
        '',
        `w${i}`,
      ),
    ]),
  );
  const bundle = bundleFrom(files, NOW);
  const payload = preflightWith(() => undefined);
  const decided = (ms: number) =>
    JSON.stringify(decide(bundle, payload, {}, new Date(ms), { decisionId: 'd-1', fullScan: true }));
  const instants = [
    ...sweep(KATHMANDU_1986),
    ...ZONES.flatMap((zone) => sweep(transitions(zone, SINCE, Date.parse('2027-01-01T00:00:00Z')))),
  ];

  test('each window policy passes exactly when luxon puts the instant inside its window', () => {
    for (const ms of instants) {
      const results = decide(bundle, payload, {}, new Date(ms), { decisionId: 'd-1', fullScan: true }).results;
      ZONES.forEach((zone, i) => {
        const t = DateTime.fromMillis(ms, { zone });
        const minute = t.hour * 60 + t.minute;
        const inside = (minute >= 90 && minute < 150) || (minute >= 180 && minute < 195);
        expect([ms, zone, results.find((r) => r.policy === `w${i}`)?.result]).toEqual([
          ms,
          zone,
          inside ? 'pass' : 'deny',
        ]);
      });
    }
  });

  test('ascending, descending and each after an instant half a year away give byte-identical decisions', () => {
    const ascending = new Map([...instants].sort((a, b) => a - b).map((ms) => [ms, decided(ms)]));
    const descending = new Map([...instants].sort((a, b) => b - a).map((ms) => [ms, decided(ms)]));
    for (const ms of instants) {
      decided(ms - 180 * 24 * HOUR_MS);
      const cold = decided(ms);
      expect([ms, descending.get(ms)]).toEqual([ms, ascending.get(ms)]);
      expect([ms, cold]).toEqual([ms, ascending.get(ms)]);
    }
  });
});
