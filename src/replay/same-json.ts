/** Text the proposed set wrote that reads as the recorded set's (its revision, for {{revision}}). */
export type TextAlias = (text: string) => string;

const defined = (o: object) => Object.keys(o).filter((k) => (o as Record<string, unknown>)[k] !== undefined);

/**
 * Whether two values have the same JSON text (JSON.stringify(a) === JSON.stringify(b)), found
 * without writing either out: same keys in the same order (keys holding undefined do not count, as
 * JSON leaves them out), same strings and numbers. `alias` maps a string of `b` that differs before
 * it is compared again. Replay compares every archived answer this way; it allocates nothing for
 * equal values, where two JSON.stringify calls would write both out.
 */
export function sameJson(a: unknown, b: unknown, alias?: TextAlias): boolean {
  if (a === b) return true;
  if (typeof a === 'string' && typeof b === 'string') return alias !== undefined && a === alias(b);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i], alias)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = defined(a);
  const kb = defined(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i] || !sameJson((a as Record<string, unknown>)[ka[i]], (b as Record<string, unknown>)[kb[i]], alias)) return false;
  }
  return true;
}
