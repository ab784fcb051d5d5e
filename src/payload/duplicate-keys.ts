import { visit } from 'jsonc-parser';
import type { FieldPath } from '../validation/field-path';

/** The `"` in a string (String#indexOf: several times faster than a charCodeAt loop, see the decision record). */
function quotesIn(s: string): number {
  let n = 0;
  for (let at = s.indexOf('"'); at !== -1; at = s.indexOf('"', at + 1)) n++;
  return n;
}

/** The `"` characters a value's strings (keys included) take when written as JSON with `\"` escapes. */
function quotesOf(value: unknown): number {
  if (typeof value === 'string') return 2 + quotesIn(value);
  if (typeof value !== 'object' || value === null) return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) n += quotesOf(value[i]);
    return n;
  }
  // JSON.parse makes plain objects: for-in sees exactly their own keys (`__proto__` included), without Object.keys' array.
  const obj = value as Record<string, unknown>;
  for (const key in obj) n += 2 + quotesIn(key) + quotesOf(obj[key]);
  return n;
}

/**
 * A cheap test that is never wrong when it says "no": outside strings JSON has no `"`, inside
 * them a `"` is written `\"` (or `\u0022`). So when no string is written with `\u0022`, the text
 * holds exactly as many `"` as the parsed value's strings and keys need, unless JSON.parse dropped
 * a key given twice (and with it the strings of the value it overwrote). One pass over the text,
 * one walk of the value: no tokenizer on the common path.
 */
export function mayHaveDuplicateKeys(text: string, parsed: unknown): boolean {
  if (text.includes('\\u0022')) return true;
  return quotesIn(text) !== quotesOf(parsed);
}

/**
 * The first key given twice in one object, with its path (escapes decoded, so `"a"` and
 * `"\u0061"` are the same key), or undefined. Expects text that JSON.parse accepted.
 */
export function findDuplicateKey(text: string): { key: string; path: FieldPath } | undefined {
  const open: Array<Set<string>> = [];
  let found: { key: string; path: FieldPath } | undefined;
  visit(text, {
    onObjectBegin: () => { open.push(new Set()); },
    onObjectEnd: () => { open.pop(); },
    onObjectProperty: (key, _offset, _length, _line, _col, pathSupplier) => {
      const keys = open[open.length - 1];
      if (found || !keys) return;
      if (keys.has(key)) found = { key, path: [...pathSupplier(), key] };
      else keys.add(key);
    },
  }, { disallowComments: true, allowTrailingComma: false });
  return found;
}
