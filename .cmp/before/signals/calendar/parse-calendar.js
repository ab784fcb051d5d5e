"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseCalendar = parseCalendar;
const ical_js_1 = __importDefault(require("ical.js"));
const zone_name_1 = require("../../syntax/zone-name");
const errorText = (err) => (err instanceof Error ? err.message : String(err));
const uidOf = (c) => String(c.getFirstPropertyValue('uid') ?? '(no UID)');
/** The calendar's zone for dates and floating times; a name that is not an IANA zone is an error. */
function calendarZone(root, configured) {
    if (configured !== undefined)
        return configured;
    const named = root.getFirstPropertyValue('x-wr-timezone');
    if (typeof named !== 'string' || named === '')
        return 'UTC';
    const problem = (0, zone_name_1.zoneProblem)(named);
    return problem === undefined
        ? named
        : { error: `X-WR-TIMEZONE: ${problem}; set timeZone on the source for the calendar's dates` };
}
/** A TZID ical.js could not resolve (no VTIMEZONE for it): its times came out floating. */
function unresolvedTzid(c, name) {
    const prop = c.getFirstProperty(name);
    const tzid = prop?.getParameter('tzid');
    const value = prop?.getFirstValue();
    if (typeof tzid !== 'string' || value === undefined || value.isDate)
        return undefined;
    return value.zone?.tzid === 'floating' ? tzid : undefined;
}
/**
 * The zone of an event's floating times: a TZID without a VTIMEZONE must be an IANA name (many
 * publishers leave the definition out); times truly floating, and dates, lie in the calendar's zone.
 */
function entryZone(c, fallback) {
    for (const name of ['dtstart', 'dtend', 'recurrence-id']) {
        const tzid = unresolvedTzid(c, name);
        if (tzid === undefined)
            continue;
        const problem = (0, zone_name_1.zoneProblem)(tzid);
        if (problem !== undefined)
            throw new Error(`${name.toUpperCase()} names TZID "${tzid}", which the calendar does not define (${problem})`);
        return tzid;
    }
    return fallback;
}
/** An event read eagerly, so a bad value is found when the calendar is read, not when it is judged. */
function entry(c, zone, exceptions = []) {
    try {
        if (!c.hasProperty('dtstart'))
            throw new Error('it has no DTSTART');
        const event = new ical_js_1.default.Event(c, { exceptions, strictExceptions: true });
        void event.endDate;
        if (event.isRecurring())
            event.iterator();
        const status = c.getFirstPropertyValue('status');
        return { event, zone: entryZone(c, zone), cancelled: String(status).toUpperCase() === 'CANCELLED' };
    }
    catch (err) {
        throw new Error(`event ${uidOf(c)}: ${errorText(err)}`);
    }
}
/**
 * Reads an iCalendar text (RFC 5545) with ical.js: VEVENTs with RRULE, RDATE, EXDATE and
 * RECURRENCE-ID overrides, times in the VTIMEZONEs the calendar defines (or an IANA TZID).
 * Anything it cannot read is the reason, as a string: a calendar read in part is never judged.
 */
function parseCalendar(text, configuredZone) {
    let root;
    try {
        const parsed = ical_js_1.default.parse(text.replace(/^\uFEFF/, ''));
        if (Array.isArray(parsed) && parsed.length === 0)
            return 'the answer is not an iCalendar file (it is empty)';
        if (!Array.isArray(parsed) || typeof parsed[0] !== 'string')
            return 'the answer holds more than one calendar';
        root = new ical_js_1.default.Component(parsed);
    }
    catch (err) {
        return `the answer is not an iCalendar file (${errorText(err)})`;
    }
    if (root.name !== 'vcalendar')
        return `the answer is not an iCalendar file (it starts with ${root.name.toUpperCase()})`;
    const zone = calendarZone(root, configuredZone);
    if (typeof zone !== 'string')
        return zone.error;
    const vevents = root.getAllSubcomponents('vevent');
    const overrideComponents = vevents.filter((c) => c.hasProperty('recurrence-id'));
    const overridesOf = new Map();
    for (const o of overrideComponents)
        overridesOf.set(uidOf(o), [...(overridesOf.get(uidOf(o)) ?? []), o]);
    try {
        const entries = vevents
            .filter((c) => !c.hasProperty('recurrence-id'))
            .map((c) => entry(c, zone, overridesOf.get(uidOf(c))));
        return { zone, entries, overrides: overrideComponents.map((c) => entry(c, zone)) };
    }
    catch (err) {
        return errorText(err);
    }
}
//# sourceMappingURL=parse-calendar.js.map