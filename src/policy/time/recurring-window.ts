import { checkAll, RuleSpecError } from '../core/rule-spec-error';
import { formatClock, parseClock } from './clock-time';
import type { LocalTime } from './wall-clock';
import { describeDays, parseDays } from './weekdays';

/** `{days: [Mon-Fri], from: "09:00", to: "17:00"}`; `to` at or before `from` crosses midnight. */
export interface RecurringSpec {
  name?: string;
  days?: string[];
  from: string;
  to: string;
}

export interface RecurringWindow {
  /** Whether a wall-clock moment in the window's zone lies inside the window. */
  contains(local: Pick<LocalTime, 'weekday' | 'hour' | 'minute'>): boolean;
  /** "Mon-Fri 09:00-17:00", or "Fri 22:00-06:00 (next day)". */
  text: string;
}

/**
 * Compiles a weekly window on the wall clock of its zone. A window belongs to the day it starts
 * on, so `Fri 22:00-06:00` covers Friday night into Saturday morning. Wall-clock times make it
 * follow daylight saving: 09:00 is 09:00 local in summer and in winter; on a spring-forward day
 * the skipped hour simply never occurs, on a fall-back day the repeated hour counts twice.
 */
export function compileRecurring(spec: RecurringSpec, path: string[]): RecurringWindow {
  const [days, from, to] = checkAll(
    () => parseDays(spec.days ?? ['Mon-Sun'], [...path, 'days']),
    () => parseClock(spec.from, [...path, 'from']),
    () => parseClock(spec.to, [...path, 'to']),
  );
  if (from === 24 * 60)
    throw new RuleSpecError('from may not be 24:00; a window starts at 00:00 of the next day instead', [
      ...path,
      'from',
    ]);
  if (from === to)
    throw new RuleSpecError(`from and to are both ${spec.from}; for a whole day write from: "00:00", to: "24:00"`, [
      ...path,
      'to',
    ]);
  const crosses = to < from;
  const text = `${describeDays(days)} ${formatClock(from)}-${formatClock(to)}${crosses ? ' (next day)' : ''}`;
  return {
    text: spec.name ? `"${spec.name}" (${text})` : text,
    contains(local) {
      const minute = local.hour * 60 + local.minute;
      const day = local.weekday;
      const yesterday = day === 1 ? 7 : day - 1;
      if (!crosses) return days.has(day) && minute >= from && minute < to;
      return (days.has(day) && minute >= from) || (days.has(yesterday) && minute < to);
    },
  };
}
