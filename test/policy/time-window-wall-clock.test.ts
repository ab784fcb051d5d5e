import fc from 'fast-check';
import { DateTime } from 'luxon';
import { conditionData, dataNeeds } from '../../src/policy/json-logic/condition-data';
import { describeLocal, LOCAL_TIMES, localTime } from '../../src/policy/time/zone';
import { Memo } from '../../src/policy/core/memo';
import type { EvaluationContext } from '../../src/policy/core/evaluation-context';

const describeAt = (iso: string, zone: string) => describeLocal(localTime(new Date(iso), zone));

describe('wall clock of a zone: the local time windows and conditions see', () => {
  test.each([
    [
      'a 30-minute offset (Kolkata)',
      '2026-01-05T10:00:00Z',
      'Asia/Kolkata',
      'Mon 2026-01-05 15:30 Asia/Kolkata (UTC+05:30)',
    ],
    [
      'a 45-minute offset (Kathmandu)',
      '2026-01-05T10:00:00Z',
      'Asia/Kathmandu',
      'Mon 2026-01-05 15:45 Asia/Kathmandu (UTC+05:45)',
    ],
    [
      "a negative half-hour offset in summer (St. John's)",
      '2026-07-01T12:00:00Z',
      'America/St_Johns',
      'Wed 2026-07-01 09:30 America/St_Johns (UTC-02:30)',
    ],
    [
      'Lord Howe, last minute of its 30-minute DST',
      '2026-04-04T14:59:59.999Z',
      'Australia/Lord_Howe',
      'Sun 2026-04-05 01:59 Australia/Lord_Howe (UTC+11:00)',
    ],
    [
      'Lord Howe, the instant DST ends (01:30 again)',
      '2026-04-04T15:00:00Z',
      'Australia/Lord_Howe',
      'Sun 2026-04-05 01:30 Australia/Lord_Howe (UTC+10:30)',
    ],
    [
      'Berlin, the last millisecond before spring forward',
      '2026-03-29T00:59:59.999Z',
      'Europe/Berlin',
      'Sun 2026-03-29 01:59 Europe/Berlin (UTC+01:00)',
    ],
    [
      'Berlin, the instant of spring forward',
      '2026-03-29T01:00:00Z',
      'Europe/Berlin',
      'Sun 2026-03-29 03:00 Europe/Berlin (UTC+02:00)',
    ],
    [
      'Berlin, the last millisecond before fall back',
      '2026-10-25T00:59:59.999Z',
      'Europe/Berlin',
      'Sun 2026-10-25 02:59 Europe/Berlin (UTC+02:00)',
    ],
    [
      'Berlin, the instant of fall back',
      '2026-10-25T01:00:00Z',
      'Europe/Berlin',
      'Sun 2026-10-25 02:00 Europe/Berlin (UTC+01:00)',
    ],
    [
      'New York, the last millisecond before spring forward',
      '2026-03-08T06:59:59.999Z',
      'America/New_York',
      'Sun 2026-03-08 01:59 America/New_York (UTC-05:00)',
    ],
    [
      'New York, the instant of spring forward',
      '2026-03-08T07:00:00Z',
      'America/New_York',
      'Sun 2026-03-08 03:00 America/New_York (UTC-04:00)',
    ],
    [
      'a POSIX-style zone west of UTC (Etc/GMT+5)',
      '2026-01-05T10:00:00Z',
      'Etc/GMT+5',
      'Mon 2026-01-05 05:00 Etc/GMT+5 (UTC-05:00)',
    ],
    ['gmt in lower case is named UTC', '2026-01-05T10:00:00Z', 'gmt', 'Mon 2026-01-05 10:00 UTC (UTC+00:00)'],
    [
      'local mean time with seconds in its offset (Kolkata, year 50)',
      '0050-06-15T23:30:00Z',
      'Asia/Kolkata',
      'Thu 0050-06-16 05:23 Asia/Kolkata (UTC+05:53)',
    ],
    ['a year before year 1', '-000100-06-15T12:00:00Z', 'UTC', 'Fri -0100-06-15 12:00 UTC (UTC+00:00)'],
  ])('%s', (_name, iso, zone, expected) => {
    expect(describeAt(iso, zone)).toBe(expected);
  });

  test('a condition reads the same wall clock: date, time and weekday at a 45-minute offset', () => {
    const facts = { now: new Date('2026-01-05T18:20:00Z'), memo: new Memo() } as EvaluationContext;
    const data = conditionData(facts, [], dataNeeds('Asia/Kathmandu', new Set(['time']))) as {
      time: Record<string, unknown>;
    };
    expect({ ...data.time }).toEqual({
      zone: 'Asia/Kathmandu',
      weekday: 'Tue',
      isoWeekday: 2,
      hour: 0,
      minute: 5,
      date: '2026-01-06',
      local: '2026-01-06T00:05',
    });
  });
});

/** What the rules computed with luxon before the wall clock was read from Intl directly. */
function luxonView(at: Date, zone: string) {
  const l = DateTime.fromJSDate(at, { zone });
  return {
    text: `${l.toFormat('ccc yyyy-MM-dd HH:mm', { locale: 'en' })} ${l.zoneName} (UTC${l.toFormat('ZZ')})`,
    time: {
      zone,
      weekday: l.toFormat('ccc', { locale: 'en' }),
      isoWeekday: l.weekday,
      hour: l.hour,
      minute: l.minute,
      date: l.toFormat('yyyy-MM-dd'),
      local: l.toFormat("yyyy-MM-dd'T'HH:mm"),
    },
  };
}

const ZONES = [
  'UTC',
  'utc',
  'GMT',
  'Etc/UTC',
  'europe/berlin',
  'Europe/Berlin',
  'Europe/London',
  'Europe/Dublin',
  'America/New_York',
  'America/St_Johns',
  'America/Sao_Paulo',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Asia/Tehran',
  'Australia/Lord_Howe',
  'Australia/Adelaide',
  'Pacific/Chatham',
  'Pacific/Kiritimati',
  'Pacific/Apia',
  'Africa/Casablanca',
  'Antarctica/Troll',
  'Etc/GMT-14',
  'EST5EDT',
];

describe('wall clock property: the same local time, text and condition data as luxon gave', () => {
  const check = (ms: number, zone: string) => {
    const at = new Date(ms);
    const expected = luxonView(at, zone);
    expect(describeLocal(localTime(at, zone))).toBe(expected.text);
    const data = conditionData(
      { now: at, memo: new Memo() } as EvaluationContext,
      [],
      dataNeeds(zone, new Set(['time'])),
    ) as { time: Record<string, unknown> };
    expect({ ...data.time }).toEqual(expected.time);
  };

  test('around today: any millisecond of 1970 to 2100, in zones with DST, half hours and 45 minutes', () => {
    const msArb = fc.integer({ min: 0, max: Date.parse('2100-01-01T00:00:00Z') });
    fc.assert(fc.property(msArb, fc.constantFrom(...ZONES), check), { numRuns: 3000 });
  });

  test('near DST switches: runs of instants a few seconds either side of the hour and half hour', () => {
    const hourArb = fc.integer({
      min: Date.parse('2020-01-01T00:00:00Z') / 1800000,
      max: Date.parse('2030-01-01T00:00:00Z') / 1800000,
    });
    const runArb = fc.array(fc.integer({ min: -2000, max: 2000 }), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(hourArb, runArb, fc.constantFrom(...ZONES), (half, run, zone) =>
        run.forEach((ms) => check(half * 1800000 + ms, zone)),
      ),
      { numRuns: 3000 },
    );
  });

  test.each([
    ['Berlin spring forward', 'Europe/Berlin', '2026-03-29T01:00:00Z'],
    ['Berlin fall back', 'Europe/Berlin', '2026-10-25T01:00:00Z'],
    ['New York spring forward', 'America/New_York', '2026-03-08T07:00:00Z'],
    ['Lord Howe half-hour fall back', 'Australia/Lord_Howe', '2026-04-04T15:00:00Z'],
  ])('%s: the last millisecond before the switch and the switch itself, one after the other', (_name, zone, iso) => {
    const at = Date.parse(iso);
    for (const ms of [at - 1000, at - 1, at, at + 999, at - 1, at + 1000]) check(ms, zone);
  });

  test('far from today: local mean time, years 0-99 and before year 1', () => {
    const msArb = fc.integer({
      min: Date.parse('-001000-01-01T00:00:00Z'),
      max: Date.parse('+010000-01-01T00:00:00Z'),
    });
    fc.assert(fc.property(msArb, fc.constantFrom(...ZONES), check), { numRuns: 2000 });
  });
});

describe('the local time of a request', () => {
  test('is computed once per request and zone, and kept in that request memo only', async () => {
    const { requestLocalTime, describeRequestLocal } = await import('../../src/policy/time/zone');
    const now = new Date('2026-01-05T18:20:00Z');
    const first = { now, memo: new Memo() } as EvaluationContext;
    const berlin = requestLocalTime(first, 'Europe/Berlin');
    expect(requestLocalTime(first, 'Europe/Berlin')).toBe(berlin);
    expect(requestLocalTime(first, 'Asia/Kathmandu')).not.toBe(berlin);
    expect(first.memo.peek(LOCAL_TIMES)?.size).toBe(2);
    expect(describeRequestLocal(first, 'Europe/Berlin')).toBe('Mon 2026-01-05 19:20 Europe/Berlin (UTC+01:00)');
    const second = { now, memo: new Memo() } as EvaluationContext;
    expect(requestLocalTime(second, 'Europe/Berlin')).not.toBe(berlin);
    expect(requestLocalTime(second, 'Europe/Berlin')).toEqual(berlin);
  });
});
