import { formatDuration, parseDuration } from './duration';

/** How a parameter limit reads values: plain numbers, or durations (`30s`; numbers are milliseconds). */
export type ValueKind = 'number' | 'duration';

const NUMBER = /^-?\d+(?:\.\d+)?$/;

/**
 * A parameter value as a number (milliseconds for durations). Steadybit sends some numbers as
 * strings (`cpuLoad: "1"`), so numeric strings count; anything else is undefined (cannot decide).
 */
export function readValue(kind: ValueKind, value: unknown): number | undefined {
  if (kind === 'duration') return parseDuration(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && NUMBER.test(value.trim())) return Number(value.trim());
  return undefined;
}

export function showValue(kind: ValueKind, n: number): string {
  return kind === 'duration' ? formatDuration(n) : String(n);
}
