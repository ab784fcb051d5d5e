"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isYearlyMoment = void 0;
exports.compileYearly = compileYearly;
const rule_spec_error_1 = require("../core/rule-spec-error");
/** `MM-DD` or `MM-DDTHH:MM`, local in the window's zone: a date of every year. */
const MONTH_DAY = /^(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/;
/** Days of each month in a leap year: a yearly date may be Feb 29 (in other years it starts on Mar 1). */
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** Whether a freeze's start or end names a date of every year (`12-18`) rather than one date (`2026-12-18`). */
const isYearlyMoment = (text) => MONTH_DAY.test(text);
exports.isYearlyMoment = isYearlyMoment;
/** A place in the year as one number that sorts as the wall clock does: MM DD HH MM. */
const placeInYear = (month, day, hour, minute) => ((month * 100 + day) * 100 + hour) * 100 + minute;
function parseYearlyMoment(text, path) {
    const m = MONTH_DAY.exec(text);
    const wrong = (why) => new rule_spec_error_1.RuleSpecError(`"${text}" is not a date of every year (${why}); write MM-DD such as 12-18, or 12-18T17:00`, path);
    if (!m)
        throw wrong('not MM-DD or MM-DDTHH:MM');
    const [month, day, hour, minute] = [m[1], m[2], m[3] ?? '00', m[4] ?? '00'].map(Number);
    if (month < 1 || month > 12)
        throw wrong(`there is no month ${m[1]}`);
    if (day < 1 || day > DAYS_IN_MONTH[month - 1])
        throw wrong(`month ${m[1]} has no day ${m[2]}`);
    if (hour > 23 || minute > 59)
        throw wrong(`${m[3]}:${m[4]} is not a time of day`);
    return { place: placeInYear(month, day, hour, minute), text: `${m[1]}-${m[2]} ${m[3] ?? '00'}:${m[4] ?? '00'}` };
}
/**
 * Compiles a yearly freeze. It covers [start, end) on the wall clock of the zone, every year; an
 * end earlier in the year than the start runs into the next year (12-18 to 01-04). The wall clock
 * follows daylight saving as weekly windows do.
 */
function compileYearly(spec, zone, path) {
    const [start, end] = (0, rule_spec_error_1.checkAll)(() => parseYearlyMoment(spec.start, [...path, 'start']), () => parseYearlyMoment(spec.end, [...path, 'end']));
    if (start.place === end.place) {
        throw new rule_spec_error_1.RuleSpecError(`end (${spec.end}) is the same as start (${spec.start}): a yearly freeze needs a span of the year`, [...path, 'end']);
    }
    const span = `every year ${start.text} to ${end.text} ${zone}`;
    const wraps = end.place < start.place;
    return {
        text: spec.name ? `"${spec.name}" (${span})` : span,
        contains: (local) => {
            const place = placeInYear(local.month, local.day, local.hour, local.minute);
            return wraps ? place >= start.place || place < end.place : place >= start.place && place < end.place;
        },
    };
}
//# sourceMappingURL=yearly-window.js.map