"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_OCCURRENCES = void 0;
exports.calendarWindow = calendarWindow;
exports.eventsAt = eventsAt;
exports.activeEvents = activeEvents;
const luxon_1 = require("luxon");
/**
 * Occurrences of one series walked through up to an instant, at most: ical.js expands from DTSTART
 * (tens of microseconds each), so an event repeating every minute for years cannot be judged.
 */
exports.MAX_OCCURRENCES = 10_000;
/** The instant of an ical.js time: its own zone (a VTIMEZONE, UTC), or for a floating time or a date, `zone`. */
function instant(time, zone) {
    if (!time.isDate && time.zone !== undefined && time.zone.tzid !== 'floating')
        return time.toUnixTime() * 1000;
    const t = time.clone();
    t.adjust(0, 0, 0, 0);
    const local = luxon_1.DateTime.fromObject(t.isDate
        ? { year: t.year, month: t.month, day: t.day }
        : { year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second }, { zone });
    return local.toMillis();
}
const iso = (ms) => new Date(ms).toISOString();
const text = (event, name) => {
    const value = event.component.getFirstPropertyValue(name);
    return value === null || value === undefined || value === '' ? undefined : String(value);
};
const clip = (s, max) => s === undefined || s.length <= max ? s : `${s.slice(0, max - 1)}…`;
function occurrence(entry, start, end, recurrenceId) {
    const { event } = entry;
    const fact = {
        uid: event.uid ?? '',
        summary: event.summary ?? '',
        start: iso(start),
        end: iso(end),
        allDay: event.startDate.isDate,
        categories: event.component.getAllProperties('categories').flatMap((p) => p.getValues().map(String)),
    };
    if (recurrenceId !== undefined)
        fact.recurrenceId = iso(recurrenceId);
    const location = text(event, 'location');
    const description = clip(text(event, 'description'), 300);
    const status = text(event, 'status');
    if (location !== undefined)
        fact.location = location;
    if (description !== undefined)
        fact.description = description;
    if (status !== undefined)
        fact.status = status;
    return { start, end, fact };
}
const overlaps = (start, end, from, until) => start < until && end > from;
/** The occurrences of a series overlapping `[from, until)`, the overridden ones left to their overrides. */
function seriesIn(entry, from, until) {
    const { event, zone } = entry;
    const out = [];
    const iterator = event.iterator();
    for (let n = 0, next = iterator.next(); next; next = iterator.next(), n++) {
        if (n >= exports.MAX_OCCURRENCES)
            return `event ${event.uid}: more than ${exports.MAX_OCCURRENCES} occurrences before ${iso(from)}, too many to expand`;
        const original = instant(next, zone);
        if (original >= until)
            break;
        const details = event.getOccurrenceDetails(next);
        if (details.item !== event)
            continue;
        const start = instant(details.startDate, zone);
        const end = instant(details.endDate, zone);
        if (overlaps(start, end, from, until))
            out.push(occurrence(entry, start, end, original));
    }
    return out;
}
/** A single event or an override, if it overlaps `[from, until)`. */
function singleIn(entry, from, until) {
    const { event, zone } = entry;
    const start = instant(event.startDate, zone);
    const end = instant(event.endDate, zone);
    if (!overlaps(start, end, from, until))
        return [];
    const recurrenceId = event.recurrenceId ? instant(event.recurrenceId, zone) : undefined;
    return [occurrence(entry, start, end, recurrenceId)];
}
/**
 * Every occurrence overlapping `[from, until)`: the recurring events expanded by ical.js (RRULE,
 * RDATE, EXDATE), a moved occurrence (RECURRENCE-ID) at its new time; cancelled events
 * (STATUS:CANCELLED) left out. Done once per fetch for the time the answer is kept; a string says
 * why the calendar cannot be judged.
 */
function calendarWindow(calendar, from, until) {
    const occurrences = [];
    try {
        for (const entry of [...calendar.entries, ...calendar.overrides]) {
            if (entry.cancelled)
                continue;
            const found = entry.event.isRecurring() && !entry.event.isRecurrenceException()
                ? seriesIn(entry, from, until)
                : singleIn(entry, from, until);
            if (typeof found === 'string')
                return found;
            occurrences.push(...found);
        }
    }
    catch (err) {
        return `the calendar cannot be expanded (${err instanceof Error ? err.message : String(err)})`;
    }
    occurrences.sort((a, b) => a.start - b.start || a.fact.uid.localeCompare(b.fact.uid));
    return { from, until, occurrences };
}
/** The events of a window going on at `now` (start <= now < end), in order of start. */
function eventsAt(window, now) {
    const at = now.getTime();
    return window.occurrences.filter((o) => o.start <= at && at < o.end).map((o) => o.fact);
}
/** The events going on at `now`, expanded for that instant alone (a `now` outside any window kept). */
function activeEvents(calendar, now) {
    const window = calendarWindow(calendar, now.getTime(), now.getTime() + 1);
    return typeof window === 'string' ? window : eventsAt(window, now);
}
//# sourceMappingURL=active-events.js.map