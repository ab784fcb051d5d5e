"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseEventTime = parseEventTime;
exports.isAfter = isAfter;
const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9})\d*)?([Zz]|[+-]\d{2}:?\d{2})$/;
/** Parses an RFC 3339 time; undefined when it is not one (or lies before 1970). */
function parseEventTime(text) {
    const m = RFC3339.exec(text);
    if (!m)
        return undefined;
    const [, date, clock, fraction = '', zone] = m;
    const offset = zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
    const secondsMs = Date.parse(`${date}T${clock}${offset}`);
    if (Number.isNaN(secondsMs) || secondsMs < 0)
        return undefined;
    const nanosOfSecond = fraction.padEnd(9, '0');
    const nanos = BigInt(secondsMs) * 1000000n + BigInt(nanosOfSecond);
    return { text, ms: secondsMs + Math.floor(Number(nanosOfSecond) / 1e6), key: nanos.toString().padStart(20, '0') };
}
/** The later of two times by exact order. */
function isAfter(a, b) {
    return a.key > b.key;
}
//# sourceMappingURL=event-time.js.map