import fc from 'fast-check';
import { timeWindowRule } from '../../src/policy/rules/time-window';
import type { EvaluationContext } from '../../src/policy/core/evaluation-context';
import { Memo } from '../../src/policy/core/memo';
import { generatedSize } from '../helpers/test-lane';

const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'Asia/Kolkata', 'UTC'];
const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const clock = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/** The wall clock in a zone by the platform's Intl data, independent of luxon. */
const formats = new Map(
  ZONES.map((zone) => [
    zone,
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }),
  ]),
);
function wallClock(at: Date, zone: string): { day: number; minute: number } {
  const parts = (formats.get(zone) as Intl.DateTimeFormat).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { day: DAYS.indexOf(get('weekday')), minute: Number(get('hour')) * 60 + Number(get('minute')) };
}

/** Whether the run is inside `{days, from, to}` by the plain definition (a window belongs to the day it starts). */
function oracle(at: Date, zone: string, days: number[], from: number, to: number): boolean {
  const { day, minute } = wallClock(at, zone);
  if (from < to) return days.includes(day) && minute >= from && minute < to;
  return (days.includes(day) && minute >= from) || (days.includes((day + 6) % 7) && minute < to);
}

describe('timeWindow property: the rule agrees with the wall clock of the platform time-zone data', () => {
  test('for random instants, zones and weekly windows (crossing midnight included)', () => {
    const windowArb = fc
      .record({
        zone: fc.constantFrom(...ZONES),
        days: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 7 }),
        from: fc.integer({ min: 0, max: 24 * 4 - 1 }).map((q) => q * 15),
        to: fc.integer({ min: 1, max: 24 * 4 }).map((q) => q * 15),
      })
      .filter((w) => w.from !== w.to);
    const instantArb = fc
      .integer({ min: Date.parse('2026-01-01T00:00:00Z') / 60000, max: Date.parse('2028-01-01T00:00:00Z') / 60000 })
      .map((m) => new Date(m * 60000));
    fc.assert(
      fc.property(windowArb, fc.array(instantArb, { minLength: 1, maxLength: 20 }), (w, instants) => {
        const rule = timeWindowRule.compile({
          timeZone: w.zone,
          allowed: [{ days: w.days.map((d) => DAYS[d]), from: clock(w.from), to: clock(w.to) }],
        });
        for (const now of instants) {
          const inside =
            rule.check({ ctx: { now, memo: new Memo() } as EvaluationContext, steps: [] }).found.length === 0;
          expect(inside).toBe(oracle(now, w.zone, w.days, w.from, w.to));
        }
      }),
      { numRuns: generatedSize(300, 100) },
    );
  });
});
