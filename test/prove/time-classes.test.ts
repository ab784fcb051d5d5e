import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { termsOf } from '../../src/prove/terms';
import { timeClasses } from '../../src/prove/time-classes';
import { generatedSize } from '../helpers/test-lane';
import { NOW, setOf } from './prove-sets';

/**
 * The time classes decide each wall clock once (every zone's date, weekday and time of day, and which
 * written instants have passed), with offsets looked up in a table of the zone's clock changes. Both
 * are shortcuts: on generated windows, in zones with clock changes, half-hour offsets and none, the
 * classes are the ones found by deciding every candidate with offsets asked of luxon at each.
 */
const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'America/Santiago', 'UTC'];
const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const hhmm = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 30))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${m === 0 ? '00' : '30'}`);
const mmdd = fc
  .tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
  .map(([m, d]) => `${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
// Freezes of one day of every year (February 29 among them) meet each weekday only in some years.
const oneDay = fc
  .date({ min: new Date('2025-01-01T00:00:00Z'), max: new Date('2025-12-30T00:00:00Z'), noInvalidDate: true })
  .map(
    (d) =>
      [d.toISOString().slice(5, 10), new Date(d.getTime() + 86_400_000).toISOString().slice(5, 10)] as [string, string],
  );
const freeze = fc.oneof(
  oneDay,
  fc.constant(['02-29', '03-01'] as [string, string]),
  fc.tuple(mmdd, mmdd),
  fc
    .tuple(fc.integer({ min: 2026, max: 2050 }), mmdd)
    .map(([y, d]) => [`${y}-${d}`, `${y}-${d}T12:00`] as [string, string]),
);
const weekly = fc.record({ days: fc.subarray(DAYS, { minLength: 1, maxLength: 3 }), from: hhmm, to: hhmm });
const rule = fc.record({
  zone: fc.constantFrom(...ZONES),
  allowed: fc.array(weekly, { maxLength: 1 }),
  deny: fc.array(
    fc.oneof(
      weekly,
      freeze.map(([start, end]) => ({ start, end })),
    ),
    { minLength: 1, maxLength: 2 },
  ),
});
/** A policy of one time-window rule (JSON is YAML). */
function toYaml(r: { zone: string; allowed: object[]; deny: object[] }, i: number): string {
  const spec: Record<string, unknown> = { timeZone: r.zone };
  if (r.deny.length > 0) spec.deny = r.deny;
  if (r.allowed.length > 0) spec.allowed = r.allowed;
  return `kind: Policy\nname: window-${i}\nrules:\n  - timeWindow: ${JSON.stringify(spec)}\n`;
}
const exception = (i: number, days: number) =>
  `kind: Exception\nname: waiver-${i}\npolicy: window-0\nowner: sre@example.com\nreason: gameday\nexpires: "${new Date(NOW.getTime() + days * 86_400_000).toISOString()}"\nmatch: { teams: [SRE] }\n`;

const window = (zone: string, deny: object[], allowed: object[] = []) => ({ zone, deny, allowed });
const allDay = (days: string[]) => ({ days, from: '00:00', to: '24:00' });

describe('time classes: each wall clock decided once gives the classes of deciding every candidate', () => {
  const made: string[] = [];
  afterAll(() => {
    for (const d of made) rmSync(d, { recursive: true, force: true });
  });
  const classesOf = (rules: Array<Parameters<typeof toYaml>[0]>, expiries: number[]) => {
    const dir = mkdtempSync(join(tmpdir(), 'time-classes-'));
    made.push(dir);
    rules.forEach((r, i) => writeFileSync(join(dir, `w${i}.yaml`), toYaml(r, i)));
    expiries.forEach((days, i) => writeFileSync(join(dir, `e${i}.yaml`), exception(i, days)));
    const set = setOf(dir);
    const docs = [...set.policies.values(), ...set.exceptions];
    const terms = termsOf(set).filter((t) => t.reads.get('time') === 'full');
    const args = [docs, terms, set.bundle.exceptions, NOW] as const;
    return {
      once: timeClasses(...args).classes.sort(),
      every: timeClasses(...args, { everyCandidate: true }).classes.sort(),
    };
  };

  it.each([
    // February 29 on a weekday the other rule leaves open: a wall clock's weekday is part of it.
    [
      'a leap-day freeze beside Tuesdays and Sundays denied',
      [window('UTC', [allDay(['Tue', 'Sun'])]), window('UTC', [{ start: '02-29', end: '03-01' }])],
      [],
    ],
    // The hour Berlin repeats and the one it skips, beside a zone that keeps none.
    [
      'windows at 02:30 in Berlin and in New York',
      [
        window('Europe/Berlin', [{ days: ['Sun'], from: '02:30', to: '03:00' }]),
        window('America/New_York', [{ days: ['Sun'], from: '01:30', to: '02:30' }]),
      ],
      [],
    ],
    // Half an hour of Sunday in summer only: the boundaries must be where the clock is.
    [
      'a summer freeze beside half an hour of Sunday',
      [
        window('Europe/Berlin', [{ start: '07-01', end: '08-01' }]),
        window('Europe/Berlin', [{ days: ['Sun'], from: '10:00', to: '10:30' }]),
      ],
      [],
    ],
    // A dated freeze written with seconds, local in its zone: read as the engine reads it (found by review).
    [
      'a Tokyo freeze from 2040-12-18T17:00:00 beside Tuesday evenings allowed',
      [
        window('Asia/Tokyo', [{ start: '2040-12-18T17:00:00', end: '2040-12-25' }]),
        window('Asia/Tokyo', [], [{ days: ['Tue'], from: '17:00', to: '24:00' }]),
      ],
      [],
    ],
    // Half-hour offsets and a half-hour clock change.
    [
      'Lord Howe and Kolkata',
      [
        window('Australia/Lord_Howe', [{ days: ['Sat'], from: '01:30', to: '02:30' }]),
        window('Asia/Kolkata', [{ start: '12-24', end: '12-26' }]),
      ],
      [],
    ],
    // Exceptions expiring, a dated freeze: which written instants have passed is part of it.
    [
      'exceptions and a dated freeze',
      [window('Europe/Berlin', [{ start: '2031-06-01', end: '2031-06-02T12:00' }, allDay(['Tue'])])],
      [-3, 2, 400, 3000],
    ],
  ] as const)('%s', (_name, rules, expiries) => {
    const { once, every } = classesOf(rules as never, [...expiries]);
    expect(once.length).toBeGreaterThan(1);
    expect(once).toEqual(every);
  });

  it('on generated windows in zones with and without clock changes', () => {
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 1, maxLength: 2 }),
        fc.array(fc.integer({ min: -30, max: 4000 }), { maxLength: 2 }),
        (rules, expiries) => {
          const { once, every } = classesOf(rules, expiries);
          expect(once).toEqual(every);
        },
      ),
      { numRuns: generatedSize(6, 3), seed: 58 },
    );
  });
});
