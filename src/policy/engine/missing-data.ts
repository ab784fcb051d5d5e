/** What the preflight webhook must send for attribute rules, said the same way everywhere. */
export function attributeHint(keys: readonly string[]): string {
  const list = keys.join(', ');
  return `add ${list} to the preflight webhook's targetAttributeIncludes (or "*" for all attributes) so Steadybit sends ${keys.length === 1 ? 'it' : 'them'}, or set whenMissing: allow`;
}

/** Most violations one step reports; the rest are summed up in one more line. */
export const MAX_PER_STEP = 10;

/** Keeps the first MAX_PER_STEP items and says how many more there were. */
export function capped<T>(items: T[], more: (n: number) => T): T[] {
  if (items.length <= MAX_PER_STEP) return items;
  return [...items.slice(0, MAX_PER_STEP), more(items.length - MAX_PER_STEP)];
}
