import { IANAZone } from 'luxon';
import { RuleSpecError } from '../rule-kind';
import { wallClock, type LocalTime } from './wall-clock';
import { WEEKDAYS } from './weekdays';

export type { LocalTime } from './wall-clock';

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
const computed = new WeakMap<Date, Map<string, LocalTime>>();

/**
 * `now` on the wall clock of the zone; weekday, hour and minute follow its DST rules.
 * Computed once per `now` object and zone: every window of every policy of a request shares it.
 */
export function localTime(now: Date, zone: string): LocalTime {
  let byZone = computed.get(now);
  if (!byZone) computed.set(now, (byZone = new Map()));
  let local = byZone.get(zone);
  if (!local) byZone.set(zone, (local = wallClock(now.getTime(), zone)));
  return local;
}

/** Zero-padded to `width` digits, a minus sign in front of negative numbers (luxon's padStart). */
function pad(n: number, width = 2): string {
  return n < 0 ? `-${String(-n).padStart(width, '0')}` : String(n).padStart(width, '0');
}

/** "2026-01-03" */
export const localDate = (t: LocalTime): string => `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}`;

/** "10:15" */
export const localClock = (t: LocalTime): string => `${pad(t.hour)}:${pad(t.minute)}`;

/** "Sat" */
export const weekdayName = (t: LocalTime): string => WEEKDAYS[t.weekday - 1];

/** "+01:00", "-03:30": whole minutes of the offset, as luxon's `ZZ` shows it. */
function offsetText(offset: number): string {
  const hours = Math.trunc(Math.abs(offset / 60));
  const minutes = Math.trunc(Math.abs(offset % 60));
  return `${offset >= 0 ? '+' : '-'}${pad(hours)}:${pad(minutes)}`;
}

/** Descriptions already made: every window of a request describes the same local time. */
const described = new WeakMap<LocalTime, string>();

/** "Sat 2026-01-03 10:15 Europe/Berlin (UTC+01:00)": what a person needs to see the window's view of now. */
export function describeLocal(local: LocalTime): string {
  let text = described.get(local);
  if (text === undefined) {
    text = `${weekdayName(local)} ${localDate(local)} ${localClock(local)} ${local.zoneName} (UTC${offsetText(local.offset)})`;
    described.set(local, text);
  }
  return text;
}
