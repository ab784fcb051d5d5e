"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseMoment = parseMoment;
exports.compileFreeze = compileFreeze;
const luxon_1 = require("luxon");
const rule_spec_error_1 = require("../core/rule-spec-error");
const HAS_OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;
/**
 * A moment given as RFC 3339 with an offset (`2026-12-18T00:00:00Z`, `...+01:00`), or as a local
 * date or date-time in the window's zone (`2026-12-18`, `2026-12-18T17:00`). A local time that
 * daylight saving skips moves forward by the gap; use an offset when an ambiguous hour matters.
 */
function parseMoment(text, zone, path) {
    const parsed = HAS_OFFSET.test(text) ? luxon_1.DateTime.fromISO(text, { setZone: true }) : luxon_1.DateTime.fromISO(text, { zone });
    if (!parsed.isValid) {
        throw new rule_spec_error_1.RuleSpecError(`"${text}" is not a date-time (${parsed.invalidExplanation ?? parsed.invalidReason}); write 2026-12-18, 2026-12-18T17:00 (local in the time zone), RFC 3339 such as 2026-12-18T16:00:00Z, or 12-18 for a freeze of every year`, path);
    }
    return parsed;
}
/** Compiles a freeze; it covers [start, end): from its start up to, not including, its end. */
function compileFreeze(spec, zone, path) {
    const [start, end] = (0, rule_spec_error_1.checkAll)(() => parseMoment(spec.start, zone, [...path, 'start']), () => parseMoment(spec.end, zone, [...path, 'end']));
    if (end <= start)
        throw new rule_spec_error_1.RuleSpecError(`end (${spec.end}) must be after start (${spec.start})`, [...path, 'end']);
    const local = (d) => d.setZone(zone).toFormat('yyyy-MM-dd HH:mm');
    const span = `${local(start)} to ${local(end)} ${zone}`;
    const startDate = start.toJSDate();
    const endDate = end.toJSDate();
    return {
        start: startDate,
        end: endDate,
        text: spec.name ? `"${spec.name}" (${span})` : span,
        contains: (now) => now >= startDate && now < endDate,
    };
}
//# sourceMappingURL=freeze-window.js.map