import { decideAt, loadProblems, policyDocument } from '../../helpers/decide-harness';

const window = (spec: string) => ({ 'p.yaml': policyDocument(`timeWindow: ${spec}`) });

const berlinDaily = window('{timeZone: Europe/Berlin, allowed: [{from: "09:00", to: "17:00"}]}');
const berlinNightDeny = window('{timeZone: Europe/Berlin, deny: [{from: "02:00", to: "03:00"}]}');
const nyWeekdays = window('{timeZone: America/New_York, allowed: [{days: [Mon-Fri], from: "09:00", to: "17:00"}]}');
const nyNightDeny = window('{timeZone: America/New_York, deny: [{from: "01:00", to: "02:00"}]}');
const nyNight2Deny = window('{timeZone: America/New_York, deny: [{from: "02:00", to: "03:00"}]}');
const fridayNight = window('{timeZone: UTC, allowed: [{days: [Fri], from: "22:00", to: "06:00"}]}');
const nyFreeze = window(
  '{timeZone: America/New_York, deny: [{name: year-end freeze, start: "2026-12-18", end: "2027-01-04"}]}',
);
const berlinFreezeAtSpring = window(
  '{timeZone: Europe/Berlin, deny: [{start: "2026-03-29T03:00", end: "2026-03-30"}]}',
);
const utcFreeze = window(
  '{timeZone: Europe/Berlin, deny: [{start: "2026-12-18T16:00:00Z", end: "2026-12-19T00:00:00+01:00"}]}',
);
const kolkataDaily = window('{timeZone: Asia/Kolkata, allowed: [{from: "09:00", to: "17:00"}]}');
const lordHoweRepeatDeny = window('{timeZone: Australia/Lord_Howe, deny: [{from: "01:30", to: "02:00"}]}');
const fridayAfternoons = window(
  '{timeZone: Europe/Berlin, deny: [{name: no Friday afternoons, days: [Fri], from: "15:00", to: "24:00"}]}',
);

describe('timeWindow rule: allowed and deny windows on the wall clock of an IANA zone', () => {
  test.each([
    // Europe/Berlin spring forward, Sun 2026-03-29 01:00Z: 02:00 CET -> 03:00 CEST
    ['Berlin, day before spring forward, 08:59 CET', berlinDaily, '2026-03-28T07:59:00Z', false],
    ['Berlin, day before spring forward, 09:00 CET', berlinDaily, '2026-03-28T08:00:00Z', true],
    ['Berlin, spring-forward day, 08:59 CEST', berlinDaily, '2026-03-29T06:59:00Z', false],
    ['Berlin, spring-forward day, 09:00 CEST', berlinDaily, '2026-03-29T07:00:00Z', true],
    ['Berlin, spring-forward day, 16:59 CEST', berlinDaily, '2026-03-29T14:59:00Z', true],
    ['Berlin, spring-forward day, 17:00 CEST', berlinDaily, '2026-03-29T15:00:00Z', false],
    // Europe/Berlin fall back, Sun 2026-10-25 01:00Z: 03:00 CEST -> 02:00 CET
    ['Berlin, day before fall back, 09:00 CEST', berlinDaily, '2026-10-24T07:00:00Z', true],
    ['Berlin, fall-back day, 08:30 CET', berlinDaily, '2026-10-25T07:30:00Z', false],
    ['Berlin, fall-back day, 09:00 CET', berlinDaily, '2026-10-25T08:00:00Z', true],
    ['Berlin, fall-back day, 01:59 CEST before the deny hour', berlinNightDeny, '2026-10-24T23:59:00Z', true],
    ['Berlin, first 02:30 (CEST) is in the deny hour', berlinNightDeny, '2026-10-25T00:30:00Z', false],
    ['Berlin, repeated 02:30 (CET) is in the deny hour too', berlinNightDeny, '2026-10-25T01:30:00Z', false],
    ['Berlin, 03:00 CET after the repeated hour', berlinNightDeny, '2026-10-25T02:00:00Z', true],
    [
      'Berlin, spring-forward day, the deny hour never happens (01:59 CET)',
      berlinNightDeny,
      '2026-03-29T00:59:00Z',
      true,
    ],
    [
      'Berlin, spring-forward day, the deny hour never happens (03:00 CEST)',
      berlinNightDeny,
      '2026-03-29T01:00:00Z',
      true,
    ],
    // America/New_York spring forward, Sun 2026-03-08 07:00Z: 02:00 EST -> 03:00 EDT
    ['New York, Friday before, 08:59 EST', nyWeekdays, '2026-03-06T13:59:00Z', false],
    ['New York, Friday before, 09:00 EST', nyWeekdays, '2026-03-06T14:00:00Z', true],
    ['New York, Monday after, 08:59 EDT', nyWeekdays, '2026-03-09T12:59:00Z', false],
    ['New York, Monday after, 09:00 EDT', nyWeekdays, '2026-03-09T13:00:00Z', true],
    ['New York, Sunday is not a weekday', nyWeekdays, '2026-03-08T15:00:00Z', false],
    ['New York, skipped 02:00-03:00 never happens (01:59 EST)', nyNight2Deny, '2026-03-08T06:59:00Z', true],
    ['New York, skipped 02:00-03:00 never happens (03:00 EDT)', nyNight2Deny, '2026-03-08T07:00:00Z', true],
    // America/New_York fall back, Sun 2026-11-01 06:00Z: 02:00 EDT -> 01:00 EST
    ['New York, 00:59 EDT before the deny hour', nyNightDeny, '2026-11-01T04:59:00Z', true],
    ['New York, first 01:30 (EDT) is in the deny hour', nyNightDeny, '2026-11-01T05:30:00Z', false],
    ['New York, repeated 01:30 (EST) is in the deny hour too', nyNightDeny, '2026-11-01T06:30:00Z', false],
    ['New York, 02:00 EST after the repeated hour', nyNightDeny, '2026-11-01T07:00:00Z', true],
    // a zone 30 minutes off the hour: Asia/Kolkata is UTC+05:30 all year
    ['Kolkata, 08:59 IST', kolkataDaily, '2026-01-05T03:29:00Z', false],
    ['Kolkata, 09:00 IST', kolkataDaily, '2026-01-05T03:30:00Z', true],
    ['Kolkata, 16:59 IST', kolkataDaily, '2026-01-05T11:29:00Z', true],
    ['Kolkata, 17:00 IST', kolkataDaily, '2026-01-05T11:30:00Z', false],
    // Australia/Lord_Howe half-hour DST ends at the instant 2026-04-04T15:00Z: 02:00 (+11:00) -> 01:30 (+10:30)
    ['Lord Howe, 01:29 before the deny half hour', lordHoweRepeatDeny, '2026-04-04T14:29:00Z', true],
    ['Lord Howe, first 01:45 (+11:00) is in the deny half hour', lordHoweRepeatDeny, '2026-04-04T14:45:00Z', false],
    ['Lord Howe, the instant DST ends is 01:30 again (+10:30)', lordHoweRepeatDeny, '2026-04-04T15:00:00Z', false],
    [
      'Lord Howe, repeated 01:59 (+10:30) is in the deny half hour too',
      lordHoweRepeatDeny,
      '2026-04-04T15:29:00Z',
      false,
    ],
    ['Lord Howe, 02:00 (+10:30) after the repeated half hour', lordHoweRepeatDeny, '2026-04-04T15:30:00Z', true],
    [
      'Berlin, the instant of spring forward is 03:00, past the deny hour',
      berlinNightDeny,
      '2026-03-29T01:00:00.000Z',
      true,
    ],
    [
      'Berlin, the instant of fall back is 02:00 again, in the deny hour',
      berlinNightDeny,
      '2026-10-25T01:00:00.000Z',
      false,
    ],
    // windows crossing midnight belong to the day they start on
    ['Fri 22:00-06:00: Friday 21:59 is before it', fridayNight, '2026-01-09T21:59:00Z', false],
    ['Fri 22:00-06:00: Friday 23:00 is inside', fridayNight, '2026-01-09T23:00:00Z', true],
    ['Fri 22:00-06:00: Saturday 05:59 is inside', fridayNight, '2026-01-10T05:59:00Z', true],
    ['Fri 22:00-06:00: Saturday 06:00 is after it', fridayNight, '2026-01-10T06:00:00Z', false],
    ['Fri 22:00-06:00: Saturday 23:00 is not a Friday night', fridayNight, '2026-01-10T23:00:00Z', false],
    ['Fri 22:00-06:00: Friday 05:00 belongs to Thursday night', fridayNight, '2026-01-09T05:00:00Z', false],
    // freezes: local dates in the zone, or RFC 3339; [start, end)
    ['freeze by local date: 23:59 New York the evening before', nyFreeze, '2026-12-18T04:59:00Z', true],
    ['freeze by local date: starts at local midnight (05:00Z)', nyFreeze, '2026-12-18T05:00:00Z', false],
    ['freeze by local date: last minute', nyFreeze, '2027-01-04T04:59:00Z', false],
    ['freeze by local date: the end is not included', nyFreeze, '2027-01-04T05:00:00Z', true],
    ['freeze from local 03:00 on the spring-forward day: 00:59Z', berlinFreezeAtSpring, '2026-03-29T00:59:00Z', true],
    ['freeze from local 03:00 on the spring-forward day: 01:00Z', berlinFreezeAtSpring, '2026-03-29T01:00:00Z', false],
    ['freeze in RFC 3339: a minute before', utcFreeze, '2026-12-18T15:59:00Z', true],
    ['freeze in RFC 3339: at the start', utcFreeze, '2026-12-18T16:00:00Z', false],
    ['freeze in RFC 3339 with an offset: the end is exclusive', utcFreeze, '2026-12-18T23:00:00Z', true],
    ['recurring deny: Friday 14:59 Berlin', fridayAfternoons, '2026-01-09T13:59:00Z', true],
    ['recurring deny: Friday 15:00 Berlin', fridayAfternoons, '2026-01-09T14:00:00Z', false],
    ['recurring deny: Friday 23:59 Berlin (24:00 ends the day)', fridayAfternoons, '2026-01-09T22:59:00Z', false],
    ['recurring deny: Saturday 00:00 Berlin', fridayAfternoons, '2026-01-09T23:00:00Z', true],
  ])('%s', (_name, files, now, allowed) => {
    expect(decideAt(files, now).allowed).toBe(allowed);
  });

  test('the message names the window, the zone and the local time now', () => {
    const d = decideAt(nyWeekdays, '2026-03-08T15:00:00Z');
    expect(d.message).toContain(
      'outside the allowed time windows (Mon-Fri 09:00-17:00 America/New_York): it is Sun 2026-03-08 11:00 America/New_York (UTC-04:00) now',
    );
  });

  test('the message shows a half-hour offset as it is', () => {
    const d = decideAt(kolkataDaily, '2026-01-05T02:00:00Z');
    expect(d.message).toContain(
      'outside the allowed time windows (every day 09:00-17:00 Asia/Kolkata): it is Mon 2026-01-05 07:30 Asia/Kolkata (UTC+05:30) now',
    );
  });

  test('a weekly deny message names the window with its zone and the local time now', () => {
    const d = decideAt(fridayAfternoons, '2026-01-09T14:00:00Z');
    expect(d.message).toContain(
      'inside the deny window "no Friday afternoons" (Fri 15:00-24:00) Europe/Berlin: it is Fri 2026-01-09 15:00 Europe/Berlin (UTC+01:00) now',
    );
  });

  test('a freeze message names the freeze, its local span and the local time now', () => {
    const d = decideAt(nyFreeze, '2026-12-24T17:00:00Z');
    expect(d.message).toContain(
      'inside the deny window "year-end freeze" (2026-12-18 00:00 to 2027-01-04 00:00 America/New_York): it is Thu 2026-12-24 12:00 America/New_York (UTC-05:00) now',
    );
  });

  test('a freeze that has ended is a load-time warning, located; before its end it is not', () => {
    expect(loadProblems(nyFreeze, new Date('2027-01-04T04:59:00Z'))).toEqual([]);
    expect(loadProblems(nyFreeze, new Date('2027-01-04T05:00:00Z'))).toEqual([
      expect.stringMatching(
        /^p\.yaml:4:\d+ warning: rules\[0\]\.timeWindow\.deny\[0\]: the deny window "year-end freeze" \(2026-12-18 00:00 to 2027-01-04 00:00 America\/New_York\) ended and no longer applies; remove it$/,
      ),
    ]);
  });

  test.each([
    [
      'an unknown time zone',
      '{timeZone: Europe/Gotham, allowed: [{from: "09:00", to: "17:00"}]}',
      'rules[0].timeWindow.timeZone: unknown time zone "Europe/Gotham"',
    ],
    [
      'a time that is not HH:MM',
      '{timeZone: UTC, allowed: [{from: "9am", to: "17:00"}]}',
      'rules[0].timeWindow.allowed[0].from: "9am" is not a time of day',
    ],
    [
      'an hour past 24',
      '{timeZone: UTC, allowed: [{from: "09:00", to: "25:00"}]}',
      'rules[0].timeWindow.allowed[0].to: "25:00" is not a time of day',
    ],
    ['an empty window', '{timeZone: UTC, allowed: [{from: "09:00", to: "09:00"}]}', 'from and to are both 09:00'],
    [
      'an unknown day',
      '{timeZone: UTC, allowed: [{days: [Mon-Fry], from: "09:00", to: "17:00"}]}',
      'rules[0].timeWindow.allowed[0].days[0]: "Mon-Fry" is not a day or day range',
    ],
    [
      'a freeze that ends before it starts',
      '{timeZone: UTC, deny: [{start: "2027-01-04", end: "2026-12-18"}]}',
      'rules[0].timeWindow.deny[0].end: end (2026-12-18) must be after start (2027-01-04)',
    ],
    [
      'a freeze date that does not exist',
      '{timeZone: UTC, deny: [{start: "2026-02-30", end: "2026-03-02"}]}',
      'rules[0].timeWindow.deny[0].start: "2026-02-30" is not a date-time',
    ],
    [
      'a deny window mixing freeze and recurring keys',
      '{timeZone: UTC, deny: [{start: "2026-12-18", end: "2027-01-04", from: "09:00", to: "10:00"}]}',
      'either a freeze (start + end) or a recurring window',
    ],
    ['a freeze without an end', '{timeZone: UTC, deny: [{start: "2026-12-18"}]}', 'rules[0].timeWindow.deny[0]'],
    ['neither allowed nor deny', '{timeZone: UTC}', 'rules[0].timeWindow'],
    [
      'a yearly freeze on a day its month does not have',
      '{timeZone: UTC, deny: [{start: "04-31", end: "05-02"}]}',
      'rules[0].timeWindow.deny[0].start: "04-31" is not a date of every year (month 04 has no day 31)',
    ],
    [
      'a yearly freeze in month 13',
      '{timeZone: UTC, deny: [{start: "12-18", end: "13-01"}]}',
      'rules[0].timeWindow.deny[0].end: "13-01" is not a date of every year (there is no month 13)',
    ],
    [
      'a yearly freeze at a time that is not one',
      '{timeZone: UTC, deny: [{start: "12-18T24:30", end: "12-19"}]}',
      'rules[0].timeWindow.deny[0].start: "12-18T24:30" is not a date of every year (24:30 is not a time of day)',
    ],
    [
      'a yearly freeze that ends where it starts',
      '{timeZone: UTC, deny: [{start: "12-18", end: "12-18T00:00"}]}',
      'end (12-18T00:00) is the same as start (12-18)',
    ],
    [
      'a yearly start with an end that is no date of either kind',
      '{timeZone: UTC, deny: [{start: "12-18", end: "1-4"}]}',
      'rules[0].timeWindow.deny[0].end: "1-4" is not a date-time',
    ],
    [
      'a yearly end with a start that has seconds',
      '{timeZone: UTC, deny: [{start: "12-18T17:00:30", end: "12-19"}]}',
      'rules[0].timeWindow.deny[0].start: "12-18T17:00:30" is not a date-time',
    ],
    [
      'a freeze with a yearly start and a dated end',
      '{timeZone: UTC, deny: [{start: "12-18", end: "2027-01-04"}]}',
      'rules[0].timeWindow.deny[0]: start and end of a freeze are both dates of every year',
    ],
  ])('rejects %s at load time', (_name, spec, expected) => {
    const problems = loadProblems(window(spec));
    expect(problems.join('\n')).toContain(expected);
    expect(problems.join('\n')).toMatch(/^p\.yaml:\d+:\d+ /);
  });
});

describe('timeWindow rule: freezes of every year (start and end as MM-DD, no year)', () => {
  const yearEnd = window('{timeZone: Europe/Berlin, deny: [{name: year-end freeze, start: "12-18", end: "01-04"}]}');
  const quarterClose = window('{timeZone: Europe/Berlin, deny: [{start: "03-29T18:00", end: "04-01"}]}');
  const leapDay = window('{timeZone: UTC, deny: [{start: "02-29", end: "03-02"}]}');
  const denied = (files: Record<string, string>, now: string) => !decideAt(files, now).allowed;

  test.each([
    // Europe/Berlin is UTC+01:00 in December and January, UTC+02:00 from the end of March.
    ['the last minute before the freeze', yearEnd, '2026-12-17T22:59:00Z', false],
    ['the freeze starts at local midnight', yearEnd, '2026-12-17T23:00:00Z', true],
    ['inside, over New Year', yearEnd, '2027-01-01T12:00:00Z', true],
    ['the last minute of the freeze', yearEnd, '2027-01-03T22:59:00Z', true],
    ['the end is outside', yearEnd, '2027-01-03T23:00:00Z', false],
    ['every year: 2031', yearEnd, '2031-12-24T12:00:00Z', true],
    ['every year: 2099, after its end', yearEnd, '2099-01-05T12:00:00Z', false],
    ['a date-time start, just before (17:59 CEST)', quarterClose, '2027-03-29T15:59:00Z', false],
    ['a date-time start, at 18:00 CEST', quarterClose, '2027-03-29T16:00:00Z', true],
    ['a span within the year, inside in 2030', quarterClose, '2030-03-31T21:59:00Z', true],
    ['a span within the year, its end in 2030', quarterClose, '2030-03-31T22:00:00Z', false],
    ['a span within the year, far from it', quarterClose, '2030-09-30T12:00:00Z', false],
    ['Feb 29 in a leap year', leapDay, '2028-02-29T12:00:00Z', true],
    ['Feb 28 in a leap year, before', leapDay, '2028-02-28T23:59:00Z', false],
    ['a year without Feb 29: from Mar 1', leapDay, '2027-03-01T00:00:00Z', true],
    ['a year without Feb 29: Feb 28 is outside', leapDay, '2027-02-28T23:59:00Z', false],
  ])('%s', (_name, files, now, isDenied) => {
    expect(denied(files, now)).toBe(isDenied);
  });

  test('the message names the freeze, its yearly span with the zone and the local time now', () => {
    expect(decideAt(yearEnd, '2030-12-24T11:00:00Z').message).toContain(
      'inside the deny window "year-end freeze" (every year 12-18 00:00 to 01-04 00:00 Europe/Berlin): it is Tue 2030-12-24 12:00 Europe/Berlin (UTC+01:00) now',
    );
  });

  test('a yearly freeze never goes stale: no load-time warning in any year', () => {
    for (const now of [
      '2026-01-05T10:00:00Z',
      '2027-01-04T00:00:00Z',
      '2030-06-01T00:00:00Z',
      '2099-12-31T23:59:00Z',
    ]) {
      expect(loadProblems(yearEnd, new Date(now))).toEqual([]);
    }
  });
});
