/**
 * An RFC 3339 time as Steadybit sends it, kept exact: `time` carries nine fractional digits
 * ("2024-01-01T00:00:00.000000000Z"), finer than Date's milliseconds. `key` is nanoseconds since
 * the epoch as a zero-padded 20-digit string, so plain text comparison orders times exactly
 * (in TypeScript and in Redis Lua alike, where numbers are doubles).
 */
export interface EventTime {
  text: string;
  ms: number;
  key: string;
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9})\d*)?([Zz]|[+-]\d{2}:?\d{2})$/;

/** Parses an RFC 3339 time; undefined when it is not one (or lies before 1970). */
export function parseEventTime(text: string): EventTime | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [, date, clock, fraction = '', zone] = m;
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const secondsMs = Date.parse(`${date}T${clock}${offset}`);
  if (Number.isNaN(secondsMs) || secondsMs < 0) return undefined;
  const nanosOfSecond = fraction.padEnd(9, '0');
  const nanos = BigInt(secondsMs) * 1_000_000n + BigInt(nanosOfSecond);
  return { text, ms: secondsMs + Math.floor(Number(nanosOfSecond) / 1e6), key: nanos.toString().padStart(20, '0') };
}

/** The later of two times by exact order. */
export function isAfter(a: EventTime, b: EventTime): boolean {
  return a.key > b.key;
}
