import { bodyExcerpt } from './body-excerpt';
import { fetched, httpGetText, type Fetched } from './http-get-json';
import type { JsonAnswer } from '../policy/facts/signal-facts';
import type { SignalSource } from './signal-source';
import { activeEvents, calendarWindow, eventsAt, type CalendarWindow } from './calendar/active-events';
import { parseCalendar, type ParsedCalendar } from './calendar/parse-calendar';

/**
 * A calendar as fetched and read, kept SIGNAL_CACHE_TTL_MS and judged at each decision's `now`
 * (its occurrences of the next day expanded once, when read); or why it cannot be read.
 */
export type CalendarRead =
  | { readAt: string; status: number; calendar: ParsedCalendar; window: CalendarWindow }
  | { readAt: string; error: string };

/** How far ahead of its reading a calendar is expanded: longer than any SIGNAL_CACHE_TTL_MS (at most 5 minutes). */
export const CALENDAR_WINDOW_MS = 24 * 60 * 60 * 1000;

/** `GET <source url><path>` of a `format: ical` source (auth, CA, timeout as any source), read with ical.js. */
export async function fetchCalendar(
  source: SignalSource,
  path: string,
  timeoutMs: number,
  clock: () => Date,
): Promise<Fetched<CalendarRead>> {
  const http = await httpGetText(source, path, timeoutMs, 'text/calendar');
  const readAt = clock().toISOString();
  if (!http.ok) return fetched(http, { readAt, error: http.error });
  if (http.status >= 300 && http.status <= 399)
    return fetched(http, {
      readAt,
      error: `HTTP ${http.status}: a redirect, which is not followed; set the source's url to the calendar's final address`,
    });
  if (http.status < 200 || http.status > 399)
    return fetched(http, { readAt, error: `HTTP ${http.status}: ${bodyExcerpt(http.text)}` });
  const calendar = parseCalendar(http.text, source.calendar?.timeZone);
  if (typeof calendar === 'string') return fetched(http, { readAt, error: calendar });
  const from = Date.parse(readAt);
  const window = calendarWindow(calendar, from, from + CALENDAR_WINDOW_MS);
  if (typeof window === 'string') return fetched(http, { readAt, error: window });
  return fetched(http, { readAt, status: http.status, calendar, window });
}

/**
 * What a `json` rule reads from a calendar: `{status, body: {now, timeZone, events}}`, the events
 * going on at the decision's `now`, so the same rule, archive, replay and suites serve calendars.
 */
export function calendarJsonAnswer(read: CalendarRead, now: Date): JsonAnswer {
  if ('error' in read) return read;
  const at = now.getTime();
  const kept = at >= read.window.from && at < read.window.until;
  const events = kept ? eventsAt(read.window, now) : activeEvents(read.calendar, now);
  if (typeof events === 'string') return { readAt: read.readAt, error: events };
  return {
    readAt: read.readAt,
    status: read.status,
    body: { now: now.toISOString(), timeZone: read.calendar.zone, events },
  };
}
