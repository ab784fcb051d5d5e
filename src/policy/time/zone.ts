import { DateTime, IANAZone } from 'luxon';
import { RuleSpecError } from '../rule-kind';

/** Checks an IANA time zone name at load time (`Europe/Berlin`, `America/New_York`, `UTC`). */
export function checkZone(zone: string, path: string[] = ['timeZone']): string {
  if (!IANAZone.isValidZone(zone)) {
    throw new RuleSpecError(`unknown time zone "${zone}"; use an IANA name such as Europe/Berlin, America/New_York or UTC`, path);
  }
  return zone;
}

/** `now` as a wall-clock date-time in the zone; weekday, hour and minute follow its DST rules. */
export function localTime(now: Date, zone: string): DateTime {
  return DateTime.fromJSDate(now, { zone }).setLocale('en');
}

/** "Sat 2026-01-03 10:15 Europe/Berlin (UTC+01:00)": what a person needs to see the window's view of now. */
export function describeLocal(local: DateTime): string {
  return `${local.toFormat('ccc yyyy-MM-dd HH:mm')} ${local.zoneName} (UTC${local.toFormat('ZZ')})`;
}
