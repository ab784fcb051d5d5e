/** Durations in policies: `30s`, `30m`, `4h`, `1d`, `1w`, or sums such as `1h30m`. */
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const WHOLE = /^(\d+[smhdw])+$/;
const PART = /(\d+)([smhdw])/g;

export const DURATION_PATTERN = '^([0-9]+[smhdw])+$';

/** Milliseconds of a duration text; undefined when it is not one or is zero. */
export function parseDuration(text: string): number | undefined {
  if (!WHOLE.test(text)) return undefined;
  let ms = 0;
  for (const [, n, unit] of text.matchAll(PART)) ms += Number(n) * UNIT_MS[unit];
  return ms > 0 && Number.isSafeInteger(ms) ? ms : undefined;
}

/** `1h30m` for 5_400_000; the largest units first. */
export function formatDuration(ms: number): string {
  let rest = ms;
  let out = '';
  for (const unit of ['w', 'd', 'h', 'm', 's']) {
    const n = Math.floor(rest / UNIT_MS[unit]);
    if (n > 0) { out += `${n}${unit}`; rest -= n * UNIT_MS[unit]; }
  }
  return out || `${ms}ms`;
}
