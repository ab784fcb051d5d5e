import { DateTime, IANAZone } from 'luxon';
import { RuleSpecError } from '../rule-kind';

/** Zone names already found valid: luxon's check builds an Intl.DateTimeFormat each time (slow, native memory). */
const validZones = new Set<string>();

/** Checks an IANA time zone name at load time (`Europe/Berlin`, `America/New_York`, `UTC`). */
export function checkZone(zone: string, path: string[] = ['timeZone']): string {
  if (!validZones.has(zone)) {
    if (!IANAZone.isValidZone(zone)) {
      throw new RuleSpecError(`unknown time zone "${zone}"; use an IANA name such as Europe/Berlin, America/New_York or UTC`, path);
    }
    validZones.add(zone);
  }
  return zone;
}

/** Local times already computed for a request's `now` (the same Date object), per zone. */
const computed = new WeakMap<Date, Map<string, DateTime>>();

/**
 * `now` as a wall-clock date-time in the zone; weekday, hour and minute follow its DST rules.
 * Computed once per `now` object and zone: every window of every policy of a request shares it.
 */
export function localTime(now: Date, zone: string): DateTime {
  let byZone = computed.get(now);
  if (!byZone) computed.set(now, (byZone = new Map()));
  let local = byZone.get(zone);
  if (!local) byZone.set(zone, (local = DateTime.fromJSDate(now, { zone })));
  return local;
}

/** Descriptions already made: every window of a request describes the same local time. */
const described = new WeakMap<DateTime, string>();

/** "Sat 2026-01-03 10:15 Europe/Berlin (UTC+01:00)": what a person needs to see the window's view of now. */
export function describeLocal(local: DateTime): string {
  let text = described.get(local);
  if (text === undefined) {
    text = `${local.toFormat('ccc yyyy-MM-dd HH:mm', { locale: 'en' })} ${local.zoneName} (UTC${local.toFormat('ZZ')})`;
    described.set(local, text);
  }
  return text;
}
