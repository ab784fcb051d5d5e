"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.outsideTolerance = outsideTolerance;
/** Every time in an event that orders the state, with the payload field it came from. */
function orderingTimes(event) {
    const times = [{ field: 'time', time: event.time }];
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
function outsideTolerance(event, now, toleranceMs) {
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
//# sourceMappingURL=event-tolerance.js.map