import { DateTime } from 'luxon';
import type { CompiledException } from '../policy/core/compiled';
import { createContext } from '../policy/engine/create-context';
import type { PreflightPayload } from '../policy/core/decision';
import type { Doc } from './policy-set';
import type { Term } from './terms';

/** Years of weekly windows and yearly freezes the time classes cover: every weekday falls on every date, leap days included. */
export const HORIZON_YEARS = 8;

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const HHMM = /^(\d{2}):(\d{2})$/;
const YEARLY = /^\d{2}-\d{2}(?:T(\d{2}):(\d{2}))?$/;
const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/;

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
          const local = LOCAL_DATE.exec(t);
          if (yearly) times.minutes.add(yearly[1] ? Number(yearly[1]) * 60 + Number(yearly[2]) : 0);
          else if (local) {
            const at = DateTime.fromObject(
              { year: +local[1], month: +local[2], day: +local[3], hour: +(local[4] ?? 0), minute: +(local[5] ?? 0) },
              { zone },
            );
            if (at.isValid) instants.push(at.toMillis());
          } else if (!Number.isNaN(Date.parse(t))) instants.push(Date.parse(t));
        }
      }
    }
  }
  return { zones, instants };
}

/** The instants of one zone's day at which the wall clock reads one of `minutes`, both of a repeated hour, and a clock jump. */
function dayInstants(day: DateTime, minutes: Set<number>, out: number[]): void {
  const start = day.startOf('day');
  const end = start.plus({ days: 1 });
  for (const m of minutes) {
    const at = start.set({ hour: Math.floor(m / 60), minute: m % 60 });
    out.push(at.toMillis());
    if (start.offset !== end.offset) {
      // A clock change today: the same wall time under the other offset (the repeated hour), if it exists.
      const other = at.toMillis() + (at.offset - (at.offset === start.offset ? end.offset : start.offset)) * 60_000;
      const back = DateTime.fromMillis(other, { zone: day.zone });
      if (back.hour === at.hour && back.minute === at.minute) out.push(other);
    }
  }
  if (start.offset !== end.offset) {
    // The instant the clock jumps, found by halving: a wall time skipped over changes there.
    let lo = start.toMillis();
    let hi = end.toMillis();
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (DateTime.fromMillis(mid, { zone: day.zone }).offset === start.offset) lo = mid;
      else hi = mid;
    }
    out.push(hi);
  }
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
): { values: Date[]; horizon: { from: string; to: string } } {
  const { zones, instants } = boundariesOf(docs);
  const first = DateTime.fromObject({ year: from.getUTCFullYear(), month: 1, day: 1 }, { zone: 'utc' });
  const last = first.plus({ years: HORIZON_YEARS });
  const candidates: number[] = [first.toMillis(), ...instants];
  for (const e of exceptions) candidates.push(e.expires.getTime() - 1, e.expires.getTime());
  for (const [zone, times] of zones) {
    for (let day = first.setZone(zone).minus({ days: 1 }); day < last; day = day.plus({ days: 1 }))
      dayInstants(day, times.minutes, candidates);
  }
  const checks = timeTerms.flatMap((t) =>
    t.bundle.policies.flatMap((p) => p.rules.filter((r) => r.kind === 'timeWindow').map((r) => ({ t, r }))),
  );
  const payload: PreflightPayload = { event: 'experiment.execution.preflight', execution: { id: 0 } };
  const byAnswer = new Map<string, number>();
  const sorted = [...new Set(candidates.flatMap((c) => [c, c + 1]))].sort((a, b) => a - b);
  for (const at of sorted) {
    const now = new Date(at);
    const answers: string[] = checks.map(({ t, r }) => {
      const ctx = createContext(t.bundle, payload, {}, now, 'prove');
      return r.check({ ctx, steps: ctx.actionSteps }).found.length > 0 ? '1' : '0';
    });
    for (const e of exceptions) answers.push(at < e.expires.getTime() ? 'l' : 'x');
    const key = answers.join('');
    if (!byAnswer.has(key)) byAnswer.set(key, at);
  }
  return { values: [...byAnswer.values()].map((at) => new Date(at)), horizon: { from: first.toISO() ?? '', to: last.toISO() ?? '' } };
}
