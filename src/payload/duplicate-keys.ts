import { createScanner } from 'jsonc-parser';
import type { FieldPath } from '../validation/field-path';

/**
 * The `"` in a string, by String#indexOf: on Node 26.12.1, 28-36 ns per string of a big run's keys and
 * values against 185-196 ns for a charCodeAt loop (bench/shapes/quotes.js).
 */
function quotesIn(s: string): number {
  let n = 0;
  for (let at = s.indexOf('"'); at !== -1; at = s.indexOf('"', at + 1)) n++;
  return n;
}

/**
 * The `"` characters a value's strings (keys included) take when written as JSON: 2 each, plus
 * `quotesInside` of the string (its `\"` escapes). A loop with its own stack, not recursion: a
 * body may nest as deep as BODY_LIMIT allows. A string is counted where it is met; only objects
 * and arrays wait on the stack (written out twice, not through a helper closure: this runs on
 * every request, over every string of the payload).
 */
function quotesOf(root: unknown, quotesInside: (s: string) => number): number {
  if (typeof root === 'string') return 2 + quotesInside(root);
  if (typeof root !== 'object' || root === null) return 0;
  let n = 0;
  const pending: object[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (typeof item === 'string') n += 2 + quotesInside(item);
        else if (typeof item === 'object' && item !== null) pending.push(item);
      }
    } else {
      // JSON.parse makes plain objects: for-in sees exactly their own keys (`__proto__` included).
      const obj = value as Record<string, unknown>;
      for (const key in obj) {
        const item = obj[key];
        n += 2 + quotesInside(key);
        if (typeof item === 'string') n += 2 + quotesInside(item);
        else if (typeof item === 'object' && item !== null) pending.push(item);
      }
    }
  }
  return n;
}

const none = () => 0;

/**
 * A cheap test that is never wrong when it says "no": outside strings JSON has no `"`, inside
 * them a `"` is written `\"` (or `\u0022`). So when no string is written with `\u0022`, the text
 * holds exactly as many `"` as the parsed value's strings and keys need, unless JSON.parse dropped
 * a key given twice (and with it the strings of the value it overwrote). One pass over the text,
 * one walk of the value: no tokenizer on the common path. A text without `\"` (Steadybit's
 * payloads) has no string holding a `"`, so the walk only counts strings. `quotesInText`: the
 * text's `"`, when the caller counted them already (faster from UTF-8 bytes: quote-bytes.ts).
 */
export function mayHaveDuplicateKeys(text: string, parsed: unknown, quotesInText = quotesIn(text)): boolean {
  if (text.includes('\\u0022')) return true;
  return quotesInText !== quotesOf(parsed, text.includes('\\"') ? quotesIn : none);
}

// jsonc-parser's SyntaxKind values (an ambient const enum, which isolatedModules cannot read).
const OPEN_BRACE = 1,
  CLOSE_BRACE = 2,
  OPEN_BRACKET = 3,
  CLOSE_BRACKET = 4,
  COMMA = 5,
  STRING = 10,
  EOF = 17;

interface Frame {
  keys?: Set<string>;
  key?: string;
  index: number;
  expectKey: boolean;
}

function pathOf(stack: readonly Frame[]): FieldPath {
  const path: FieldPath = [];
  for (const f of stack) {
    if (!f.keys) path.push(f.index);
    else if (f.key !== undefined) path.push(f.key);
  }
  return path;
}

/**
 * Walks the tokens of JSON text (jsonc-parser's scanner, escapes decoded, so `"a"` and `"\u0061"`
 * are the same key) with a stack of open objects and arrays; no recursion, whatever the depth.
 * Stops at the first key given twice in one object, or at the token that reaches `stopAt`.
 */
function walk(text: string, stopAt: number): { duplicate?: string; path: FieldPath } {
  const scanner = createScanner(text, true);
  const stack: Frame[] = [];
  for (let token = scanner.scan(); token !== EOF; token = scanner.scan()) {
    if (scanner.getTokenOffset() + scanner.getTokenLength() > stopAt) break;
    const top = stack[stack.length - 1];
    if (token === OPEN_BRACE) stack.push({ keys: new Set(), index: 0, expectKey: true });
    else if (token === OPEN_BRACKET) stack.push({ index: 0, expectKey: false });
    else if (token === CLOSE_BRACE || token === CLOSE_BRACKET) stack.pop();
    else if (token === COMMA && top) {
      top.index++;
      top.expectKey = top.keys !== undefined;
    } else if (token === STRING && top?.keys && top.expectKey) {
      const key = scanner.getTokenValue();
      top.key = key;
      top.expectKey = false;
      if (top.keys.has(key)) return { duplicate: key, path: pathOf(stack) };
      top.keys.add(key);
    }
  }
  return { path: pathOf(stack) };
}

/** The first key given twice in one object, with its path, or undefined. Expects text that JSON.parse accepted. */
export function findDuplicateKey(text: string): { key: string; path: FieldPath } | undefined {
  const { duplicate, path } = walk(text, Infinity);
  return duplicate === undefined ? undefined : { key: duplicate, path };
}

/** The path of the value or key at `offset` of JSON text (that may not parse), as far as it can be told. */
export function pathAt(text: string, offset: number): FieldPath {
  return walk(text, offset + 1).path;
}
