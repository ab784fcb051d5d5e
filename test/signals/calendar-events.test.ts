import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  activeEvents,
  calendarWindow,
  eventsAt,
  MAX_OCCURRENCES,
  type CalendarEvent,
} from '../../src/signals/calendar/active-events';
import { parseCalendar, type ParsedCalendar } from '../../src/signals/calendar/parse-calendar';
import { FIXTURES } from '../helpers/fixtures';

const text = (file: string) => readFileSync(join(FIXTURES, 'calendars', file), 'utf8');
const read = (file: string, zone?: string): ParsedCalendar => {
  const calendar = parseCalendar(text(file), zone);
  if (typeof calendar === 'string') throw new Error(calendar);
  return calendar;
};
/** The events going on at `now`, as summary start-end (UTC), the all-day ones marked. */
const at = (calendar: ParsedCalendar, now: string): string[] | string => {
  const events = activeEvents(calendar, new Date(now));
  if (typeof events === 'string') return events;
  return events.map((e: CalendarEvent) => `${e.summary} ${e.start} - ${e.end}${e.allDay ? ' (all day)' : ''}`);
};

describe('calendar events going on at an instant (ical.js)', () => {
  const freezes = read('change-freezes.ics');
  const FRIDAY = 'Friday release freeze';

  test.each([
    // A weekly RRULE, 09:00-17:00 Europe/Berlin (its VTIMEZONE): 08:00-16:00 UTC in winter (CET, +01:00) ...
    [
      'winter: 09:30 CET on a Friday',
      '2026-03-27T08:30:00Z',
      [`${FRIDAY} 2026-03-27T08:00:00.000Z - 2026-03-27T16:00:00.000Z`],
    ],
    ['winter: 08:30 CET is before the freeze', '2026-03-27T07:30:00Z', []],
    // ... and 07:00-15:00 UTC in summer (CEST, +02:00), after the last Sunday of March.
    [
      'summer: 09:30 CEST, the first Friday after the change',
      '2026-04-03T07:30:00Z',
      [`${FRIDAY} 2026-04-03T07:00:00.000Z - 2026-04-03T15:00:00.000Z`],
    ],
    ['summer: 17:30 CEST is after it (15:30 UTC, inside a winter freeze)', '2026-04-03T15:30:00Z', []],
    [
      'the last Friday before the October change is still summer',
      '2026-10-23T07:30:00Z',
      [`${FRIDAY} 2026-10-23T07:00:00.000Z - 2026-10-23T15:00:00.000Z`],
    ],
    ['the first Friday after it is winter again: 08:30 CET is before', '2026-10-30T07:30:00Z', []],
    [
      '... and 09:30 CET inside',
      '2026-10-30T08:30:00Z',
      [`${FRIDAY} 2026-10-30T08:00:00.000Z - 2026-10-30T16:00:00.000Z`],
    ],
    ['EXDATE takes out the occurrence of 10 April', '2026-04-10T10:00:00Z', []],
    ['RECURRENCE-ID moves the one of 17 April away from the Friday ...', '2026-04-17T10:00:00Z', []],
    [
      '... to Thursday 10:00-18:00 CEST',
      '2026-04-16T10:00:00Z',
      [`${FRIDAY} (moved to Thursday) 2026-04-16T08:00:00.000Z - 2026-04-16T16:00:00.000Z`],
    ],
    ['before the first occurrence', '2026-01-01T10:00:00Z', []],
    // An event across the spring change: 01:00 CET to 04:00 CEST lasts two hours.
    [
      '01:00-04:00 local on the night of the change is 00:00-02:00 UTC',
      '2026-03-29T01:30:00Z',
      ['Night maintenance across the clock change 2026-03-29T00:00:00.000Z - 2026-03-29T02:00:00.000Z'],
    ],
    ['the end is not part of the event', '2026-03-29T02:00:00Z', []],
    // An all-day event lies in the calendar's zone (X-WR-TIMEZONE: Europe/Berlin): midnight to midnight there.
    [
      '00:30 in Berlin on Black Friday',
      '2026-11-26T23:30:00Z',
      ['Black Friday freeze 2026-11-26T23:00:00.000Z - 2026-11-27T23:00:00.000Z (all day)'],
    ],
    ['23:30 in Berlin the day before', '2026-11-26T22:30:00Z', []],
    [
      'two events at once, in order of start',
      '2026-11-27T10:00:00Z',
      [
        'Black Friday freeze 2026-11-26T23:00:00.000Z - 2026-11-27T23:00:00.000Z (all day)',
        `${FRIDAY} 2026-11-27T08:00:00.000Z - 2026-11-27T16:00:00.000Z`,
      ],
    ],
  ])('%s', (_name, now, expected) => {
    expect(at(freezes, now)).toEqual(expected);
  });

  test('an event says what a rule may match on: uid, categories, its place in the series', () => {
    expect(activeEvents(freezes, new Date('2026-04-16T10:00:00Z'))).toEqual([
      {
        uid: 'friday-freeze@preflight-gate.test',
        summary: 'Friday release freeze (moved to Thursday)',
        start: '2026-04-16T08:00:00.000Z',
        end: '2026-04-16T16:00:00.000Z',
        allDay: false,
        categories: ['freeze', 'release'],
        recurrenceId: '2026-04-17T07:00:00.000Z',
      },
    ]);
  });

  test('a window expanded once (when the calendar is read) answers as the instant expanded alone', () => {
    const from = Date.parse('2026-11-26T20:00:00Z');
    const window = calendarWindow(freezes, from, from + 24 * 3600 * 1000);
    if (typeof window === 'string') throw new Error(window);
    expect(window.occurrences.map((o) => o.fact.summary)).toEqual(['Black Friday freeze', FRIDAY]);
    for (let t = from; t < window.until; t += 30 * 60 * 1000)
      expect(eventsAt(window, new Date(t))).toEqual(activeEvents(freezes, new Date(t)));
  });

  test('the source timeZone wins over X-WR-TIMEZONE for all-day events', () => {
    expect(at(read('change-freezes.ics', 'America/New_York'), '2026-11-27T10:00:00Z')).toEqual([
      'Black Friday freeze 2026-11-27T05:00:00.000Z - 2026-11-28T05:00:00.000Z (all day)',
      `${FRIDAY} 2026-11-27T08:00:00.000Z - 2026-11-27T16:00:00.000Z`,
    ]);
  });

  test('an occurrence cancelled by an override (STATUS:CANCELLED, as Google deletes one) is not going on', () => {
    const calendar = parseCalendar(
      [
        'BEGIN:VCALENDAR',
        'BEGIN:VEVENT',
        'UID:daily',
        'SUMMARY:Daily freeze',
        'DTSTART:20260105T090000Z',
        'DTEND:20260105T100000Z',
        'RRULE:FREQ=DAILY',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'UID:daily',
        'RECURRENCE-ID:20260107T090000Z',
        'STATUS:CANCELLED',
        'SUMMARY:Daily freeze',
        'DTSTART:20260107T090000Z',
        'DTEND:20260107T100000Z',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    ) as ParsedCalendar;
    expect(at(calendar, '2026-01-06T09:30:00Z')).toEqual([
      'Daily freeze 2026-01-06T09:00:00.000Z - 2026-01-06T10:00:00.000Z',
    ]);
    expect(at(calendar, '2026-01-07T09:30:00Z')).toEqual([]);
    expect(at(calendar, '2026-01-08T09:30:00Z')).toEqual([
      'Daily freeze 2026-01-08T09:00:00.000Z - 2026-01-08T10:00:00.000Z',
    ]);
  });

  test('a byte order mark before BEGIN:VCALENDAR is no problem', () => {
    const calendar = parseCalendar(`\uFEFF${text('change-freezes.ics')}`) as ParsedCalendar;
    expect(at(calendar, '2026-03-29T01:30:00Z')).toEqual([
      'Night maintenance across the clock change 2026-03-29T00:00:00.000Z - 2026-03-29T02:00:00.000Z',
    ]);
  });

  describe('a calendar without VTIMEZONE', () => {
    const bare = read('no-vtimezone.ics');
    test.each([
      // TZID=America/New_York with no definition: the IANA zone; the US changes on 8 March 2026.
      [
        '20:00 EST is 01:00 UTC the next day',
        '2026-03-06T02:00:00Z',
        ['US maintenance window 2026-03-06T01:00:00.000Z - 2026-03-06T05:00:00.000Z'],
      ],
      [
        '20:00 EDT a week later is 00:00 UTC',
        '2026-03-13T00:30:00Z',
        ['US maintenance window 2026-03-13T00:00:00.000Z - 2026-03-13T04:00:00.000Z'],
      ],
      ['COUNT=4 ends the series', '2026-04-03T00:30:00Z', []],
      // No X-WR-TIMEZONE: dates lie in UTC; an all-day event without DTEND lasts the day; CANCELLED is not going on.
      [
        'an all-day event without DTEND',
        '2026-04-01T12:00:00Z',
        ['Inventory day 2026-04-01T00:00:00.000Z - 2026-04-02T00:00:00.000Z (all day)'],
      ],
    ])('%s', (_name, now, expected) => {
      expect(at(bare, now)).toEqual(expected);
    });

    test('with timeZone set on the source, its dates lie there', () => {
      expect(at(read('no-vtimezone.ics', 'Asia/Tokyo'), '2026-03-31T16:00:00Z')).toEqual([
        'Inventory day 2026-03-31T15:00:00.000Z - 2026-04-01T15:00:00.000Z (all day)',
      ]);
    });
  });

  describe('what cannot be read is said, never half-read', () => {
    test.each([
      [
        'a TZID neither defined nor an IANA name',
        'undefined-tzid.ics',
        /^event windows-zone@preflight-gate\.test: DTSTART names TZID "W\. Europe Standard Time", which the calendar does not define \(unknown time zone/,
      ],
      ['a malformed DTSTART', 'malformed.ics', /^event broken@preflight-gate\.test: Could not extract integer/],
    ])('%s', (_name, file, expected) => {
      expect(parseCalendar(text(file))).toMatch(expected);
    });

    test.each([
      ['an HTML login page', '<html><body>Sign in</body></html>', /^the answer is not an iCalendar file/],
      ['an empty answer', '', /^the answer is not an iCalendar file/],
      [
        'a vCard',
        'BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Jane\r\nEND:VCARD\r\n',
        /^the answer is not an iCalendar file \(it starts with VCARD\)/,
      ],
      [
        'X-WR-TIMEZONE that is no zone',
        'BEGIN:VCALENDAR\r\nX-WR-TIMEZONE:Mars/Olympus\r\nEND:VCALENDAR\r\n',
        /^X-WR-TIMEZONE: unknown time zone "Mars\/Olympus"/,
      ],
    ])('%s', (_name, body, expected) => {
      expect(parseCalendar(body)).toMatch(expected);
    });

    test('a series with more occurrences before now than can be expanded', () => {
      const calendar = parseCalendar(
        'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:every-minute\r\nDTSTART:20200101T000000Z\r\nDURATION:PT30S\r\nRRULE:FREQ=MINUTELY\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
      ) as ParsedCalendar;
      expect(activeEvents(calendar, new Date('2026-01-01T00:00:00Z'))).toBe(
        `event every-minute: more than ${MAX_OCCURRENCES} occurrences before 2026-01-01T00:00:00.000Z, too many to expand`,
      );
    });
  });
});
