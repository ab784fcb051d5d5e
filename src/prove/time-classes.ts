import { DateTime } from 'luxon';
import type { CompiledException } from '../policy/core/compiled';
import { createContext } from '../policy/engine/create-context';
import { parseMoment } from '../policy/time/freeze-window';
import type { PreflightPayload } from '../policy/core/decision';
import type { Doc } from './policy-set';
import type { Term } from './term-types';

/**
 * Years the time classes cover: the Gregorian calendar's weekdays repeat every 28 years (from 1901 to
 * 2099), so in 28 years every date falls on every weekday, February 29 included, and a yearly freeze
 * meets every weekly window it can. Eight years left some dates on some weekdays untried.
 */
export const HORIZON_YEARS = 28;

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const HHMM = /^(\d{2}):(\d{2})$/;
const YEARLY = /^\d{2}-\d{2}(?:T(\d{2}):(\d{2}))?$/;

interface ZoneTimes {
  /** Wall-clock minutes of the day at which some window of the zone starts or ends. */
  minutes: Set<number>;
}

/** Times of day (per zone) and instants at which a written time window may change its answer. */
function boundariesOf(docs: readonly Doc[]): { zones: Map<string, ZoneTimes>; instants: number[] } {
  const zones = new Map<string, ZoneTimes>();
  const instants: number[] = [];
  for (const doc of docs) {
    for (const rule of asList(doc.rules)) {
      const spec = (rule as Doc | null)?.timeWindow as Doc | undefined;
      if (!spec || typeof spec.timeZone !== 'string') continue;
      const zone = spec.timeZone;
      const times = zones.get(zone) ?? { minutes: new Set([0]) };
      zones.set(zone, times);
      for (const w of [...asList(spec.allowed), ...asList(spec.deny)] as Doc[]) {
        for (const t of [w.from, w.to]) {
          const m = typeof t === 'string' ? HHMM.exec(t) : null;
          if (m) times.minutes.add((Number(m[1]) * 60 + Number(m[2])) % 1440);
        }
        for (const t of [w.start, w.end]) {
          if (typeof t !== 'string') continue;
          const yearly = YEARLY.exec(t);
          if (yearly) {
            times.minutes.add(yearly[1] ? Number(yearly[1]) * 60 + Number(yearly[2]) : 0);
            continue;
          }
          // A dated freeze's end, read as the engine reads it (any form it takes, in the window's zone).
          try {
            instants.push(parseMoment(t, zone, []).toMillis());
          } catch {
            // Not a moment: the set does not load (the rule's own error), so no class is decided.
          }
        }
      }
    }
  }
  return { zones, instants };
}

const DAY = 86_400_000;
const offsetAt = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).offset;

/**
 * A zone's UTC offsets (minutes) over a span, as the runtime's time zone database gives them: asked
 * once a day and, where two days differ, bisected to the millisecond the clock changes (as
 * dayInstants, it takes a zone to change its clock at most once a day); then looked up.
 */
export function zoneOffsets(zone: string, from: number, to: number): (ms: number) => number {
  const starts = [Number.NEGATIVE_INFINITY];
  const offsets = [offsetAt(from, zone)];
  for (let t = from + DAY; t <= to + DAY; t += DAY) {
    const offset = offsetAt(t, zone);
    const before = offsets[offsets.length - 1];
    if (offset === before) continue;
    let [lo, hi] = [t - DAY, t];
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (offsetAt(mid, zone) === before) lo = mid;
      else hi = mid;
    }
    starts.push(hi);
    offsets.push(offset);
  }
  return (ms) => {
    let [lo, hi] = [0, starts.length - 1];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= ms) lo = mid;
      else hi = mid - 1;
    }
    return offsets[lo];
  };
}

/** Far enough either side of a local date's midnight in UTC to be on the day before or after it in every zone (offsets are -12 to +14 h). */
const AROUND = 15 * 3_600_000;

/**
 * The instants of one zone's day (its local date given as UTC fields) at which the wall clock reads
 * one of `minutes`: by arithmetic on a day without a clock change, and on a day with one, both
 * instants of a repeated wall time and the instant the clock jumps (a skipped wall time changes there,
 * midnight included: Santiago's clock goes from 00:00 to 01:00, so its day starts at the jump).
 * The offsets are read well before the day and well after it: a zone changes its clock at most once
 * in that span (the closest two changes of one zone are almost 4 days apart, record 0033), so equal
 * offsets mean no change that day.
 */
export function dayInstants(
  y: number,
  m: number,
  d: number,
  offsetOf: (ms: number) => number,
  minutes: Set<number>,
  out: number[],
): void {
  const wall = Date.UTC(y, m, d);
  const [lo, hi] = [wall - AROUND, wall + DAY + AROUND];
  const before = offsetOf(lo);
  const after = offsetOf(hi);
  if (before === after) {
    for (const min of minutes) out.push(wall + min * 60_000 - before * 60_000);
    return;
  }
  for (const min of minutes)
    for (const offset of [before, after]) {
      const at = wall + min * 60_000 - offset * 60_000;
      if (offsetOf(at) === offset) out.push(at);
    }
  let [l, h] = [lo, hi];
  while (h - l > 1) {
    const mid = Math.floor((l + h) / 2);
    if (offsetOf(mid) === before) l = mid;
    else h = mid;
  }
  out.push(h);
}

/**
 * One instant per class of the time of a run: the time-window rules' answers and the exceptions'
 * expiry do not change within a class. Candidates are every boundary a window writes, in its zone,
 * on every day of the horizon (and 1 ms after it, the open stretch up to the next), every clock jump,
 * every dated freeze's ends and every exception's expiry; two candidates whose answers agree on every
 * time-window rule and exception are one class.
 */
export function timeClasses(
  docs: readonly Doc[],
  timeTerms: readonly Term[],
  exceptions: readonly CompiledException[],
  from: Date,
  /** Decide every candidate, none skipped as the same wall clock, with offsets from luxon at each (test/prove/time-classes.test.ts compares the two). */
  opts: { everyCandidate?: boolean } = {},
): { values: Date[]; classes: string[]; horizon: { from: string; to: string } } {
  const { zones, instants } = boundariesOf(docs);
  // No run starts before `from` (now): an exception that has expired by then waives nothing, ever.
  const first = DateTime.fromJSDate(from, { zone: 'utc' });
  const last = first.plus({ years: HORIZON_YEARS });
  const [lo, hi] = [first.toMillis(), last.toMillis()];
  const offsets = new Map([...zones.keys()].map((zone) => [zone, zoneOffsets(zone, lo - 3 * DAY, hi + 3 * DAY)]));
  const candidates: number[] = [lo, ...instants];
  for (const e of exceptions) candidates.push(e.expires.getTime() - 1, e.expires.getTime());
  for (const [zone, times] of zones) {
    // Every candidate decided: the offsets asked of the time zone database directly, as before the table.
    const offsetOf = opts.everyCandidate
      ? (ms: number) => offsetAt(ms, zone)
      : (offsets.get(zone) as (ms: number) => number);
    for (let day = lo - DAY; day < hi + DAY; day += DAY) {
      const date = new Date(day);
      dayInstants(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), offsetOf, times.minutes, candidates);
    }
  }
  // The instants a window or an exception names: which of them have passed is part of a class.
  const passes = [...new Set([...instants, ...exceptions.map((e) => e.expires.getTime())])].sort((a, b) => a - b);
  /** How many of them are at or before `at` (a binary search: they are sorted). */
  const passed = (at: number) => {
    let [l, h] = [0, passes.length];
    while (l < h) {
      const mid = (l + h) >> 1;
      if (passes[mid] <= at) l = mid + 1;
      else h = mid;
    }
    return l;
  };
  /**
   * What a time window reads of an instant: the wall clock of every zone the windows name (date,
   * weekday, time of day) and which of the instants above have passed. Two candidates alike in it are
   * one class, decided once: in 28 years each wall clock comes back about four times.
   */
  const wallOf = (at: number) =>
    `${[...offsets.values()]
      .map((offsetOf) => {
        const wall = at + offsetOf(at) * 60_000;
        const local = new Date(wall);
        return `${local.getUTCMonth()}-${local.getUTCDate()} ${local.getUTCDay()} ${wall % DAY}`;
      })
      .join(' ')} ${passed(at)}`;
  // Each distinct time-window check once (policies that repeat a spec share one), asked of one context per instant.
  const checks = [
    ...new Set(
      timeTerms.flatMap((t) => t.bundle.policies.flatMap((p) => p.rules.filter((r) => r.kind === 'timeWindow'))),
    ),
  ];
  const bundle = timeTerms[0]?.bundle;
  const payload: PreflightPayload = { event: 'experiment.execution.preflight', execution: { id: 0 } };
  const byAnswer = new Map<string, number>();
  const sorted = [...new Set(candidates.flatMap((c) => [c, c + 1]))]
    .filter((c) => c >= lo && c < hi)
    .sort((a, b) => a - b);
  const seen = new Set<string>();
  for (const at of sorted) {
    if (!opts.everyCandidate) {
      const wall = wallOf(at);
      if (seen.has(wall)) continue;
      seen.add(wall);
    }
    const now = new Date(at);
    const ctx = bundle ? createContext(bundle, payload, {}, now, 'prove') : undefined;
    const answers: string[] = ctx
      ? checks.map((r) => (r.check({ ctx, steps: ctx.actionSteps }).found.length > 0 ? '1' : '0'))
      : [];
    for (const e of exceptions) answers.push(at < e.expires.getTime() ? 'l' : 'x');
    const key = answers.join('');
    if (!byAnswer.has(key)) byAnswer.set(key, at);
  }
  return {
    values: [...byAnswer.values()].map((at) => new Date(at)),
    classes: [...byAnswer.keys()],
    horizon: { from: first.toISO() ?? '', to: last.toISO() ?? '' },
  };
}
