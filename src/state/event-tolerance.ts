import type { EventTime } from './event-time';
import type { StateEvent } from './state-event';

interface OrderingTime {
  field: string;
  time: EventTime;
  /** An engagement a disengagement ends may lie far back (a stop engaged for hours); never ahead. */
  pastUnbounded?: boolean;
}

/** Every time in an event that orders the state, with the payload field it came from. */
function orderingTimes(event: StateEvent): OrderingTime[] {
  const times: OrderingTime[] = [{ field: 'time', time: event.time }];
  if (event.kind === 'killswitch') {
    if (event.changedAt !== event.time)
      times.push({ field: `killswitch.${event.engaged ? 'engaged' : 'disengaged'}`, time: event.changedAt });
    if (event.endsEngagementAt)
      times.push({ field: 'killswitch.engaged', time: event.endsEngagementAt, pastUnbounded: true });
  }
  return times;
}

/**
 * Why the event is ignored for its times, or undefined. Every time that orders the state is
 * bounded by EVENT_TOLERANCE_SECONDS, not only `time`: a `killswitch.disengaged` far in the future
 * would make every later engagement look older and so unlock the emergency stop for good.
 */
export function outsideTolerance(event: StateEvent, now: Date, toleranceMs: number): string | undefined {
  for (const { field, time, pastUnbounded } of orderingTimes(event)) {
    const name = field === 'time' ? 'event time' : field;
    const ageMs = now.getTime() - time.ms;
    if (ageMs > toleranceMs && !pastUnbounded)
      return `ignored: ${name} ${time.text} is older than the tolerance of ${toleranceMs / 1000} s (EVENT_TOLERANCE_SECONDS)`;
    if (-ageMs > toleranceMs)
      return `ignored: ${name} ${time.text} is further in the future than the tolerance of ${toleranceMs / 1000} s (EVENT_TOLERANCE_SECONDS)`;
  }
  return undefined;
}
