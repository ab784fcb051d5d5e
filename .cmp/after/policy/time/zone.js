"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.weekdayName = exports.localClock = exports.localDate = exports.LOCAL_TIMES = void 0;
exports.checkZone = checkZone;
exports.localTime = localTime;
exports.requestLocalTime = requestLocalTime;
exports.describeLocal = describeLocal;
exports.describeRequestLocal = describeRequestLocal;
const rule_spec_error_1 = require("../core/rule-spec-error");
const wall_clock_1 = require("./wall-clock");
const weekdays_1 = require("./weekdays");
const memo_1 = require("../core/memo");
const zone_name_1 = require("../../syntax/zone-name");
/** Checks an IANA time zone name at load time (`Europe/Berlin`, `America/New_York`, `UTC`). */
function checkZone(zone, path = ['timeZone']) {
    const problem = (0, zone_name_1.zoneProblem)(zone);
    if (problem !== undefined)
        throw new rule_spec_error_1.RuleSpecError(problem, path);
    return zone;
}
/** `now` on the wall clock of the zone; weekday, hour and minute follow its DST rules. */
function localTime(now, zone) {
    return (0, wall_clock_1.wallClock)(now.getTime(), zone);
}
/** The request's `now` on the wall clock of each time zone asked for, and its description. */
exports.LOCAL_TIMES = (0, memo_1.memoKey)('now on the wall clock, by zone');
const LOCAL_TEXTS = (0, memo_1.memoKey)('now on the wall clock as text, by zone');
/**
 * The request's `now` on the wall clock of the zone, computed once per request and zone: every
 * window and condition of every policy of a request shares it. Kept in the request's memo, which
 * dies with the request (a WeakMap keyed by the request's Date kept its entries alive through
 * young-generation GCs, so they were promoted: docs/decisions/0004-per-evaluation-context.md).
 */
function requestLocalTime(ctx, zone) {
    const byZone = ctx.memo.get(exports.LOCAL_TIMES, () => new Map());
    let local = byZone.get(zone);
    if (!local)
        byZone.set(zone, (local = localTime(ctx.now, zone)));
    return local;
}
/** Zero-padded to `width` digits, a minus sign in front of negative numbers (luxon's padStart). */
function pad(n, width = 2) {
    return n < 0 ? `-${String(-n).padStart(width, '0')}` : String(n).padStart(width, '0');
}
/** "2026-01-03" */
const localDate = (t) => `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}`;
exports.localDate = localDate;
/** "10:15" */
const localClock = (t) => `${pad(t.hour)}:${pad(t.minute)}`;
exports.localClock = localClock;
/** "Sat" */
const weekdayName = (t) => weekdays_1.WEEKDAYS[t.weekday - 1];
exports.weekdayName = weekdayName;
/** "+01:00", "-03:30": whole minutes of the offset, as luxon's `ZZ` shows it. */
function offsetText(offset) {
    const hours = Math.trunc(Math.abs(offset / 60));
    const minutes = Math.trunc(Math.abs(offset % 60));
    return `${offset >= 0 ? '+' : '-'}${pad(hours)}:${pad(minutes)}`;
}
/** "Sat 2026-01-03 10:15 Europe/Berlin (UTC+01:00)": what a person needs to see the window's view of now. */
function describeLocal(local) {
    return `${(0, exports.weekdayName)(local)} ${(0, exports.localDate)(local)} ${(0, exports.localClock)(local)} ${local.zoneName} (UTC${offsetText(local.offset)})`;
}
/** describeLocal of the request's `now` in the zone, made once per request and zone (every window of a request describes the same time). */
function describeRequestLocal(ctx, zone) {
    const byZone = ctx.memo.get(LOCAL_TEXTS, () => new Map());
    let text = byZone.get(zone);
    if (text === undefined)
        byZone.set(zone, (text = describeLocal(requestLocalTime(ctx, zone))));
    return text;
}
//# sourceMappingURL=zone.js.map