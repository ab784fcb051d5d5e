"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.humanTime = humanTime;
/**
 * A time for a message to a person: RFC 3339 in UTC without milliseconds, rounded down to the
 * second (`2026-12-03T05:10:20.433Z` -> `2026-12-03T05:10:20Z`), so a latest time it names is never
 * past the limit. Machine fields (JSON, audit lines) keep toISOString's exact value.
 */
function humanTime(time) {
    const ms = typeof time === 'number' ? time : time.getTime();
    return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
//# sourceMappingURL=human-time.js.map