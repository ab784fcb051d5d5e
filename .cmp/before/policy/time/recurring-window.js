"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.compileRecurring = compileRecurring;
const rule_spec_error_1 = require("../core/rule-spec-error");
const clock_time_1 = require("./clock-time");
const weekdays_1 = require("./weekdays");
/**
 * Compiles a weekly window on the wall clock of its zone. A window belongs to the day it starts
 * on, so `Fri 22:00-06:00` covers Friday night into Saturday morning. Wall-clock times make it
 * follow daylight saving: 09:00 is 09:00 local in summer and in winter; on a spring-forward day
 * the skipped hour simply never occurs, on a fall-back day the repeated hour counts twice.
 */
function compileRecurring(spec, path) {
    const [days, from, to] = (0, rule_spec_error_1.checkAll)(() => (0, weekdays_1.parseDays)(spec.days ?? ['Mon-Sun'], [...path, 'days']), () => (0, clock_time_1.parseClock)(spec.from, [...path, 'from']), () => (0, clock_time_1.parseClock)(spec.to, [...path, 'to']));
    if (from === 24 * 60)
        throw new rule_spec_error_1.RuleSpecError('from may not be 24:00; a window starts at 00:00 of the next day instead', [
            ...path,
            'from',
        ]);
    if (from === to)
        throw new rule_spec_error_1.RuleSpecError(`from and to are both ${spec.from}; for a whole day write from: "00:00", to: "24:00"`, [
            ...path,
            'to',
        ]);
    const crosses = to < from;
    const text = `${(0, weekdays_1.describeDays)(days)} ${(0, clock_time_1.formatClock)(from)}-${(0, clock_time_1.formatClock)(to)}${crosses ? ' (next day)' : ''}`;
    return {
        text: spec.name ? `"${spec.name}" (${text})` : text,
        contains(local) {
            const minute = local.hour * 60 + local.minute;
            const day = local.weekday;
            const yesterday = day === 1 ? 7 : day - 1;
            if (!crosses)
                return days.has(day) && minute >= from && minute < to;
            return (days.has(day) && minute >= from) || (days.has(yesterday) && minute < to);
        },
    };
}
//# sourceMappingURL=recurring-window.js.map