import type { CompiledException } from '../policy/core/compiled';
import type { DimName } from './term-types';

/*
 * How often each exception with `maxUses` has waived a run (the state part `exceptionUses`), as
 * the analysed terms of its policy read it (docs/decisions/0050-exception-uses-as-fact-classes.md).
 * An exception waives while its count is under its `maxUses` (engine/waiver-blocker.ts), so the
 * counts that tell the sets apart are none and each `maxUses` the sets write for it: a count between
 * two of them is decided as the lower one. A count not gathered (or that the store cannot keep)
 * never waives, as a count at every `maxUses` does not: it is no class of its own.
 */

export const USES = 'uses:';

/** The dimension of one exception's use count. */
export const useDim = (exception: string): DimName => `${USES}${exception}`;

/** One dimension per exception name with `maxUses` in the sets: none used first, then each `maxUses` written. */
export function useDims(
  exceptions: readonly CompiledException[],
): Array<{ name: DimName; values: number[]; complete: true }> {
  const caps = new Map<string, Set<number>>();
  for (const e of exceptions)
    if (e.maxUses !== undefined) caps.set(e.name, (caps.get(e.name) ?? new Set()).add(e.maxUses));
  return [...caps]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, maxes]) => ({ name: useDim(name), values: [0, ...[...maxes].sort((a, b) => a - b)], complete: true }));
}

/** The use counts of a run's classes, in the shape `eval --state` reads (`exceptionUses`): every exception with `maxUses`. */
export function usesOf(
  dims: ReadonlyArray<{ name: DimName }>,
  value: (name: DimName) => unknown,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const d of dims) if (d.name.startsWith(USES)) out[d.name.slice(USES.length)] = value(d.name) as number;
  return out;
}
