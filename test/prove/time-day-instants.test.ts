import { DateTime } from 'luxon';
import type { Witness } from '../../src/prove/analysis';

import { dayInstants, zoneOffsets } from '../../src/prove/time-classes';
import { generatedSize } from '../helpers/test-lane';
import { diffPairs, evalWitness, setDirs, proveDir } from './prove-sets';

/**
 * The candidate instants of a zone's day, checked against luxon in every zone the runtime knows, on
 * every day its clock changes over two years: each instant the wall clock reads one of the minutes
 * on that date is a candidate, every candidate is on that date (or is the jump), and the day's first
 * instant is one, also where the clock jumps over midnight (America/Santiago, America/Havana,
 * Atlantic/Azores, Africa/Cairo: the day starts at 01:00).
 */
const DAY = 86_400_000;
const STEP = 15 * 60_000;
const FROM = Date.UTC(2026, 11, 5);

function problems(zone: string, days: number, minutes: Set<number>): string[] {
  const offsetOf = zoneOffsets(zone, FROM - 3 * DAY, FROM + (days + 3) * DAY);
  const out: string[] = [];
  for (let day = FROM; day < FROM + days * DAY; day += DAY) {
    const date = new Date(day);
    const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()];
    const local = (t: number) => DateTime.fromMillis(t, { zone });
    const onDate = (t: number) => {
      const l = local(t);
      return l.year === y && l.month === m + 1 && l.day === d;
    };
    // Only days near a change of the clock (the arithmetic of other days is checked by time-classes.test.ts).
    if (local(day - 16 * 3_600_000).offset === local(day + DAY + 16 * 3_600_000).offset) continue;
    const instants: number[] = [];
    for (let t = day - 16 * 3_600_000; t < day + DAY + 16 * 3_600_000; t += STEP) if (onDate(t)) instants.push(t);
    const got: number[] = [];
    dayInstants(y, m, d, offsetOf, minutes, got);
    const candidates = new Set(got);
    const label = `${zone} ${date.toISOString().slice(0, 10)}`;
    const first = instants[0];
    if (!candidates.has(first)) out.push(`${label}: the day's first instant ${local(first).toISO()} is no candidate`);
    for (const t of instants) {
      const l = local(t);
      if (minutes.has(l.hour * 60 + l.minute) && !candidates.has(t)) out.push(`${label}: ${l.toISO()} is no candidate`);
    }
    const jump = got[got.length - 1];
    for (const t of got)
      if (t !== jump && !onDate(t)) out.push(`${label}: candidate ${local(t).toISO()} is on another date`);
  }
  return out;
}

describe("the candidate instants of a zone's day around its clock changes", () => {
  it('in every zone, with the day starting at midnight, 00:30, 06:00 and 23:30', () => {
    const zones = Intl.supportedValuesOf('timeZone');
    const minutes = new Set([0, 30, 360, 1410]);
    expect(zones.flatMap((zone) => problems(zone, generatedSize(730, 366), minutes))).toEqual([]);
  });

  it('on the day Santiago jumps over midnight, a window boundary at 00:00 alone', () => {
    expect(problems('America/Santiago', 366, new Set([0]))).toEqual([]);
  });
});

describe("diff and prove on the day a zone's clock jumps over midnight", () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const { pair, roundTrip } = diffPairs(dirs);
  const sundays = `kind: Policy
name: sundays-only
rules:
  - timeWindow:
      timeZone: America/Santiago
      allowed: [{ days: [Sun], from: "00:00", to: "24:00" }]
`;
  // September 7 is a Sunday in some years, and then Chile's clock goes from 00:00 to 01:00.
  const freeze = `kind: Policy
name: sept7-freeze
rules:
  - timeWindow:
      timeZone: America/Santiago
      deny: [{ name: sept7, start: "09-07", end: "09-08" }]
`;

  it('a freeze of that Sunday removed: newly allowed, on a 7 September that is a Sunday', async () => {
    const { b, p, r } = pair({ 's.yaml': sundays, 'f.yaml': freeze }, { 's.yaml': sundays });
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const at = DateTime.fromISO(r.witnesses[0].now, { zone: 'America/Santiago' });
    expect([at.month, at.day, at.weekday]).toEqual([9, 7, 7]);
    await roundTrip(b, p, r.witnesses[0]);
  });

  it('a property that the freeze holds: a counterexample where only Sundays are allowed', async () => {
    const dir = dirs.write({
      's.yaml': sundays,
      'f.property.yaml': `kind: PolicyProperty\nname: sept7-frozen\nnever:\n  rules:\n    - timeWindow:\n        timeZone: America/Santiago\n        deny: [{ name: sept7, start: "09-07", end: "09-08" }]\n`,
    });
    const [result] = proveDir(dir);
    expect(result.status).toBe('counterexample');
    expect(await evalWitness(dir, result.witness as Witness)).toBe(true);
  });
});
