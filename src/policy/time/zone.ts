import { RuleSpecError } from '../core/rule-spec-error';
import { wallClock, type LocalTime } from './wall-clock';
import { WEEKDAYS } from './weekdays';
import type { EvaluationContext } from '../core/evaluation-context';
import { memoKey } from '../core/memo';
import { zoneProblem } from '../../syntax/zone-name';

export type { LocalTime } from './wall-clock';

/** Checks an IANA time zone name at load time (`Europe/Berlin`, `America/New_York`, `UTC`). */
export function checkZone(zone: string, path: string[] = ['timeZone']): string {
  const problem = zoneProblem(zone);
  if (problem !== undefined) throw new RuleSpecError(problem, path);
  return zone;
}

/** `now` on the wall clock of the zone; weekday, hour and minute follow its DST rules. */
export function localTime(now: Date, zone: string): LocalTime {
  return wallClock(now.getTime(), zone);
}

/** The request's `now` on the wall clock of each time zone asked for, and its description. */
export const LOCAL_TIMES = memoKey<Map<string, LocalTime>>('now on the wall clock, by zone');
const LOCAL_TEXTS = memoKey<Map<string, string>>('now on the wall clock as text, by zone');

/**
 * The request's `now` on the wall clock of the zone, computed once per request and zone: every
 * window and condition of every policy of a request shares it. Kept in the request's memo, which
 * dies with the request (a WeakMap keyed by the request's Date kept its entries alive through
 * young-generation GCs, so they were promoted: docs/decisions/0004-per-evaluation-context.md).
 */
export function requestLocalTime(ctx: Pick<EvaluationContext, 'now' | 'memo'>, zone: string): LocalTime {
  const byZone = ctx.memo.get(LOCAL_TIMES, () => new Map());
  let local = byZone.get(zone);
  if (!local) byZone.set(zone, (local = localTime(ctx.now, zone)));
  return local;
}

/** Zero-padded to `width` digits, a minus sign in front of negative numbers (luxon's padStart). */
function pad(n: number, width = 2): string {
  return n < 0 ? `-${String(-n).padStart(width, '0')}` : String(n).padStart(width, '0');
}

/** "2026-01-03" */
export const localDate = (t: LocalTime): string => `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}`;

/** "10:15" */
export const localClock = (t: LocalTime): string => `${pad(t.hour)}:${pad(t.minute)}`;

/** "Sat" */
export const weekdayName = (t: LocalTime): string => WEEKDAYS[t.weekday - 1];

/** "+01:00", "-03:30": whole minutes of the offset, as luxon's `ZZ` shows it. */
function offsetText(offset: number): string {
  const hours = Math.trunc(Math.abs(offset / 60));
  const minutes = Math.trunc(Math.abs(offset % 60));
  return `${offset >= 0 ? '+' : '-'}${pad(hours)}:${pad(minutes)}`;
}

/** "Sat 2026-01-03 10:15 Europe/Berlin (UTC+01:00)": what a person needs to see the window's view of now. */
export function describeLocal(local: LocalTime): string {
  return `${weekdayName(local)} ${localDate(local)} ${localClock(local)} ${local.zoneName} (UTC${offsetText(local.offset)})`;
}

/** describeLocal of the request's `now` in the zone, made once per request and zone (every window of a request describes the same time). */
export function describeRequestLocal(ctx: Pick<EvaluationContext, 'now' | 'memo'>, zone: string): string {
  const byZone = ctx.memo.get(LOCAL_TEXTS, () => new Map());
  let text = byZone.get(zone);
  if (text === undefined) byZone.set(zone, (text = describeLocal(requestLocalTime(ctx, zone))));
  return text;
}
