"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CLOCK_PATTERN = void 0;
exports.parseClock = parseClock;
exports.formatClock = formatClock;
const rule_spec_error_1 = require("../core/rule-spec-error");
/** `HH:MM` on a 24-hour clock; `24:00` is allowed as the end of a day. */
exports.CLOCK_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$';
/** Minutes since local midnight of a `HH:MM` wall-clock time. */
function parseClock(text, path) {
    const m = /^(\d{2}):(\d{2})$/.exec(text);
    const minutes = m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
    if (!m || Number(m[2]) > 59 || minutes > 24 * 60) {
        throw new rule_spec_error_1.RuleSpecError(`"${text}" is not a time of day; write HH:MM on a 24-hour clock, e.g. 09:00 or 17:30 (24:00 ends a day)`, path);
    }
    return minutes;
}
function formatClock(minutes) {
    const pad = (n) => String(n).padStart(2, '0');
    return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}
//# sourceMappingURL=clock-time.js.map