import ICAL from 'ical.js';
import { zoneProblem } from '../../syntax/zone-name';

type Component = InstanceType<typeof ICAL.Component>;
type IcalEvent = InstanceType<typeof ICAL.Event>;
type IcalTime = InstanceType<typeof ICAL.Time>;

/** One VEVENT read from a calendar: a single event, a recurring series, or an override of one occurrence. */
export interface CalendarEntry {
  event: IcalEvent;
  /** The zone of its floating times and dates: an IANA TZID the calendar gives no VTIMEZONE for, else the calendar's. */
  zone: string;
  cancelled: boolean;
}

/** A calendar read once (per fetch) and judged at many instants: series with their overrides related, and the overrides alone. */
export interface ParsedCalendar {
  /** Where all-day events and floating times lie: the source's timeZone, else X-WR-TIMEZONE, else UTC. */
  zone: string;
  /** Single events and recurring series (EXDATE and RECURRENCE-ID overrides related by ical.js). */
  entries: CalendarEntry[];
  /** Overrides (RECURRENCE-ID), judged at their own times; the series skips the occurrences they replace. */
  overrides: CalendarEntry[];
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));
const uidOf = (c: Component) => String(c.getFirstPropertyValue('uid') ?? '(no UID)');

/** The calendar's zone for dates and floating times; a name that is not an IANA zone is an error. */
function calendarZone(root: Component, configured: string | undefined): string | { error: string } {
  if (configured !== undefined) return configured;
  const named = root.getFirstPropertyValue('x-wr-timezone');
  if (typeof named !== 'string' || named === '') return 'UTC';
  const problem = zoneProblem(named);
  return problem === undefined
    ? named
    : { error: `X-WR-TIMEZONE: ${problem}; set timeZone on the source for the calendar's dates` };
}

/** A TZID ical.js could not resolve (no VTIMEZONE for it): its times came out floating. */
function unresolvedTzid(c: Component, name: string): string | undefined {
  const prop = c.getFirstProperty(name);
  const tzid = prop?.getParameter('tzid');
  const value = prop?.getFirstValue() as IcalTime | undefined;
  if (typeof tzid !== 'string' || value === undefined || value.isDate) return undefined;
  return value.zone?.tzid === 'floating' ? tzid : undefined;
}

/**
 * The zone of an event's floating times: a TZID without a VTIMEZONE must be an IANA name (many
 * publishers leave the definition out); times truly floating, and dates, lie in the calendar's zone.
 */
function entryZone(c: Component, fallback: string): string {
  for (const name of ['dtstart', 'dtend', 'recurrence-id']) {
    const tzid = unresolvedTzid(c, name);
    if (tzid === undefined) continue;
    const problem = zoneProblem(tzid);
    if (problem !== undefined)
      throw new Error(`${name.toUpperCase()} names TZID "${tzid}", which the calendar does not define (${problem})`);
    return tzid;
  }
  return fallback;
}

/** An event read eagerly, so a bad value is found when the calendar is read, not when it is judged. */
function entry(c: Component, zone: string, exceptions: Component[] = []): CalendarEntry {
  try {
    if (!c.hasProperty('dtstart')) throw new Error('it has no DTSTART');
    const event = new ICAL.Event(c, { exceptions, strictExceptions: true });
    void event.endDate;
    if (event.isRecurring()) event.iterator();
    const status = c.getFirstPropertyValue('status');
    return { event, zone: entryZone(c, zone), cancelled: String(status).toUpperCase() === 'CANCELLED' };
  } catch (err) {
    throw new Error(`event ${uidOf(c)}: ${errorText(err)}`);
  }
}

/**
 * Reads an iCalendar text (RFC 5545) with ical.js: VEVENTs with RRULE, RDATE, EXDATE and
 * RECURRENCE-ID overrides, times in the VTIMEZONEs the calendar defines (or an IANA TZID).
 * Anything it cannot read is the reason, as a string: a calendar read in part is never judged.
 */
export function parseCalendar(text: string, configuredZone?: string): ParsedCalendar | string {
  let root: Component;
  try {
    const parsed = ICAL.parse(text.replace(/^\uFEFF/, ''));
    if (Array.isArray(parsed) && parsed.length === 0) return 'the answer is not an iCalendar file (it is empty)';
    if (!Array.isArray(parsed) || typeof parsed[0] !== 'string') return 'the answer holds more than one calendar';
    root = new ICAL.Component(parsed);
  } catch (err) {
    return `the answer is not an iCalendar file (${errorText(err)})`;
  }
  if (root.name !== 'vcalendar')
    return `the answer is not an iCalendar file (it starts with ${root.name.toUpperCase()})`;
  const zone = calendarZone(root, configuredZone);
  if (typeof zone !== 'string') return zone.error;
  const vevents = root.getAllSubcomponents('vevent');
  const overrideComponents = vevents.filter((c) => c.hasProperty('recurrence-id'));
  const overridesOf = new Map<string, Component[]>();
  for (const o of overrideComponents) overridesOf.set(uidOf(o), [...(overridesOf.get(uidOf(o)) ?? []), o]);
  try {
    const entries = vevents
      .filter((c) => !c.hasProperty('recurrence-id'))
      .map((c) => entry(c, zone, overridesOf.get(uidOf(c))));
    return { zone, entries, overrides: overrideComponents.map((c) => entry(c, zone)) };
  } catch (err) {
    return errorText(err);
  }
}
