"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.readValue = readValue;
exports.showValue = showValue;
const duration_1 = require("./duration");
const NUMBER = /^-?\d+(?:\.\d+)?$/;
/**
 * A parameter value as a number (milliseconds for durations). Steadybit sends some numbers as
 * strings (`cpuLoad: "1"`), so numeric strings count; anything else is undefined (cannot decide).
 */
function readValue(kind, value) {
    if (kind === 'duration')
        return (0, duration_1.parseDuration)(value);
    if (typeof value === 'number')
        return Number.isFinite(value) ? value : undefined;
    if (typeof value === 'string' && NUMBER.test(value.trim()))
        return Number(value.trim());
    return undefined;
}
function showValue(kind, n) {
    return kind === 'duration' ? (0, duration_1.formatDuration)(n) : String(n);
}
//# sourceMappingURL=parameter-value.js.map