"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.wallClock = wallClock;
const luxon_1 = require("luxon");
const hour_offsets_1 = require("./hour-offsets");
const clocks = new Map();
/** One Intl formatter per zone, made on first use: the options luxon's IANAZone uses. */
function zoneParts(zone) {
    return new Intl.DateTimeFormat('en-US', {
        hour12: false,
        timeZone: zone,
        era: 'short',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
    });
}
/** Each zone's clock, made on first use. */
function zoneClock(zone) {
    let clock = clocks.get(zone);
    if (clock)
        return clock;
    const luxonZone = luxon_1.Info.normalizeZone(zone);
    if (!luxonZone?.isValid)
        throw new RangeError(`unknown time zone "${zone}"`);
    clock = luxonZone.isUniversal
        ? { name: luxonZone.name, fixedOffset: luxonZone.offset(0) }
        : { name: luxonZone.name, offsets: hourOffsetsOf(zoneParts(zone)) };
    clocks.set(zone, clock);
    return clock;
}
/** Milliseconds since the epoch of a wall-clock reading taken as UTC; years 0-99 are not 19xx. */
function wallAsUtc(year, month, day, hour, minute, second) {
    const at = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
    if (year >= 0 && year < 100)
        at.setUTCFullYear(year, month - 1, day);
    return at.getTime();
}
/**
 * The zone's offset at `ms`, computed as luxon's IANAZone.offset does: the wall clock Intl shows
 * for that second, read back as UTC, minus the instant (whole seconds).
 */
function intlOffset(format, ms) {
    const f = {};
    let bc = false;
    for (const { type, value } of format.formatToParts(ms)) {
        if (type === 'era')
            bc = value === 'BC';
        else if (type !== 'literal')
            f[type] = parseInt(value, 10);
    }
    const year = bc ? -Math.abs(f.year) + 1 : f.year;
    const wall = wallAsUtc(year, f.month, f.day, f.hour === 24 ? 0 : f.hour, f.minute, f.second);
    const over = ms % 1000;
    return (wall - (ms - (over >= 0 ? over : 1000 + over))) / 60000;
}
const hourOffsetsOf = (format) => new hour_offsets_1.HourOffsets((ms) => intlOffset(format, ms));
/** The zone's offset at `ms`. */
function offsetAt(clock, ms) {
    return clock.fixedOffset ?? clock.offsets.at(ms);
}
/**
 * `ms` on the wall clock of `zone` (a name checkZone accepted). The same numbers as luxon's
 * `DateTime.fromJSDate(now, {zone})`, from one `formatToParts` instead of luxon's object chain.
 */
function wallClock(ms, zone) {
    const clock = zoneClock(zone);
    const offset = offsetAt(clock, ms);
    const shifted = new Date(ms + offset * 60000);
    return {
        year: shifted.getUTCFullYear(),
        month: shifted.getUTCMonth() + 1,
        day: shifted.getUTCDate(),
        weekday: shifted.getUTCDay() === 0 ? 7 : shifted.getUTCDay(),
        hour: shifted.getUTCHours(),
        minute: shifted.getUTCMinutes(),
        offset,
        zoneName: clock.name,
    };
}
//# sourceMappingURL=wall-clock.js.map