"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CALENDAR_WINDOW_MS = void 0;
exports.fetchCalendar = fetchCalendar;
exports.calendarJsonAnswer = calendarJsonAnswer;
const body_excerpt_1 = require("./body-excerpt");
const http_get_json_1 = require("./http-get-json");
const active_events_1 = require("./calendar/active-events");
const parse_calendar_1 = require("./calendar/parse-calendar");
/** How far ahead of its reading a calendar is expanded: longer than any SIGNAL_CACHE_TTL_MS (at most 5 minutes). */
exports.CALENDAR_WINDOW_MS = 24 * 60 * 60 * 1000;
/** `GET <source url><path>` of a `format: ical` source (auth, CA, timeout as any source), read with ical.js. */
async function fetchCalendar(source, path, timeoutMs, clock) {
    const http = await (0, http_get_json_1.httpGetText)(source, path, timeoutMs, 'text/calendar');
    const readAt = clock().toISOString();
    if (!http.ok)
        return (0, http_get_json_1.fetched)(http, { readAt, error: http.error });
    if (http.status >= 300 && http.status <= 399)
        return (0, http_get_json_1.fetched)(http, {
            readAt,
            error: `HTTP ${http.status}: a redirect, which is not followed; set the source's url to the calendar's final address`,
        });
    if (http.status < 200 || http.status > 399)
        return (0, http_get_json_1.fetched)(http, { readAt, error: `HTTP ${http.status}: ${(0, body_excerpt_1.bodyExcerpt)(http.text)}` });
    const calendar = (0, parse_calendar_1.parseCalendar)(http.text, source.calendar?.timeZone);
    if (typeof calendar === 'string')
        return (0, http_get_json_1.fetched)(http, { readAt, error: calendar });
    const from = Date.parse(readAt);
    const window = (0, active_events_1.calendarWindow)(calendar, from, from + exports.CALENDAR_WINDOW_MS);
    if (typeof window === 'string')
        return (0, http_get_json_1.fetched)(http, { readAt, error: window });
    return (0, http_get_json_1.fetched)(http, { readAt, status: http.status, calendar, window });
}
/**
 * What a `json` rule reads from a calendar: `{status, body: {now, timeZone, events}}`, the events
 * going on at the decision's `now`, so the same rule, archive, replay and suites serve calendars.
 */
function calendarJsonAnswer(read, now) {
    if ('error' in read)
        return read;
    const at = now.getTime();
    const kept = at >= read.window.from && at < read.window.until;
    const events = kept ? (0, active_events_1.eventsAt)(read.window, now) : (0, active_events_1.activeEvents)(read.calendar, now);
    if (typeof events === 'string')
        return { readAt: read.readAt, error: events };
    return {
        readAt: read.readAt,
        status: read.status,
        body: { now: now.toISOString(), timeZone: read.calendar.zone, events },
    };
}
//# sourceMappingURL=calendar-client.js.map