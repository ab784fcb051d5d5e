import { IANAZone } from 'luxon';

/** Zone names already found valid: luxon's check builds an Intl.DateTimeFormat each time (slow, native memory). */
const validZones = new Set<string>();

/** Why `zone` is not an IANA time zone name we can use, or undefined when it is. */
export function zoneProblem(zone: string): string | undefined {
  if (validZones.has(zone)) return undefined;
  if (!IANAZone.isValidZone(zone))
    return `unknown time zone "${zone}"; use an IANA name such as Europe/Berlin, America/New_York or UTC`;
  validZones.add(zone);
  return undefined;
}
