"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.HourOffsets = exports.HOUR_MS = void 0;
/** One UTC hour: the span whose offset is checked at both ends (docs/decisions/0033-zone-offsets-by-the-hour.md). */
exports.HOUR_MS = 3_600_000;
/** The last instant a Date holds (the hour that starts there has no later second to ask about). */
const LAST_MS = 8.64e15;
/**
 * A zone's offset at any instant, asking `offsetOf` (the tz data, through Intl) as seldom as is
 * sound. Offsets are a function of the whole second; when the first and the last second of a UTC
 * hour have the same offset, the whole hour has it, since no zone's offset changes and changes back
 * within an hour (the closest two changes of the tz database are days apart: record 0033). Such an
 * hour is remembered, one per zone: what it holds is a fact of the tz data, the same whichever
 * decision asked first, so no answer depends on it. An hour with a change inside asks for each instant.
 */
class HourOffsets {
    offsetOf;
    known;
    constructor(offsetOf) {
        this.offsetOf = offsetOf;
    }
    /** Minutes east of UTC at `ms`. */
    at(ms) {
        const from = Math.floor(ms / exports.HOUR_MS) * exports.HOUR_MS;
        const known = this.known;
        if (known !== undefined && known.from === from)
            return known.offset;
        const first = this.offsetOf(from);
        if (first !== this.offsetOf(Math.min(from + exports.HOUR_MS - 1000, LAST_MS)))
            return this.offsetOf(ms);
        this.known = { from, offset: first };
        return first;
    }
}
exports.HourOffsets = HourOffsets;
//# sourceMappingURL=hour-offsets.js.map