/**
 * A glob as the parser reads it (glob-syntax.ts) and the matcher compiles it (policy/core/glob-matcher.ts).
 * The tree is the meaning: a value matches when the whole value, read as Unicode code points, is
 * one of the strings the sequence denotes, letters compared by Unicode simple case folding (as a
 * JavaScript `iu` regular expression compares them). Values are ids and keys, not paths: `/`, `.`
 * and `\` in a value are characters like any other (docs/policies.md, "Globs and names").
 */
export type GlobNode =
  /** Literal text, escapes resolved (`a\*b` is the text `a*b`). */
  | { kind: 'text'; text: string }
  /** `?`: exactly one character. */
  | { kind: 'one' }
  /** `*` or `**`: any characters, none included. */
  | { kind: 'any' }
  /** `[a-z]`, `[^0-9]`, `[[:alpha:]]`: one character of (or, negated, outside) the class. */
  | { kind: 'class'; negated: boolean; ranges: CodeRange[] }
  /** `{a,b}`, `@(a|b)` and a range `{1..9}` (its values as text): exactly one of the alternatives. */
  | { kind: 'oneOf'; alternatives: GlobNode[][] }
  /** `?(a)` (0 to 1), `*(a)` (0 or more), `+(a)` (1 or more) of the alternatives, one after another. */
  | { kind: 'repeat'; min: 0 | 1; max: 1 | typeof Number.POSITIVE_INFINITY; alternatives: GlobNode[][] }
  /** `!(a|b)`: any text (none included) that is none of the alternatives as a whole. */
  | { kind: 'noneOf'; alternatives: GlobNode[][] };

/** Code points `from` to `to`, both included. */
export type CodeRange = readonly [from: number, to: number];

const ascii = (...pairs: string[]): CodeRange[] =>
  pairs.map((pair) => [pair.codePointAt(0) as number, pair.codePointAt(pair.length - 1) as number]);

/** The POSIX classes, as in the C locale (ASCII only): `[[:alpha:]]` is `[a-zA-Z]`. */
export const POSIX_CLASSES: ReadonlyMap<string, readonly CodeRange[]> = new Map([
  ['alnum', ascii('az', 'AZ', '09')],
  ['alpha', ascii('az', 'AZ')],
  ['ascii', ascii('\u0000\u007f')],
  ['blank', ascii(' ', '\t')],
  ['cntrl', ascii('\u0000\u001f', '\u007f')],
  ['digit', ascii('09')],
  ['graph', ascii('!~')],
  ['lower', ascii('az')],
  ['print', ascii(' ~')],
  ['punct', ascii('!/', ':@', '[`', '{~')],
  ['space', ascii('\t\r', ' ')],
  ['upper', ascii('AZ')],
  ['word', ascii('az', 'AZ', '09', '_')],
  ['xdigit', ascii('09', 'af', 'AF')],
]);

/** More values than this in one range (`{1..100000}`) is refused: it is compiled as its values. */
export const MAX_RANGE_VALUES = 1000;

const NUMBER_RANGE = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/;
const LETTER_RANGE = /^([a-zA-Z])\.\.([a-zA-Z])$/;

/**
 * The values of a brace range body (`1..9`, `01..10`, `9..1..2`, `a..f`) as bash expands them:
 * either direction, both ends included, a step's sign ignored (0 is 1), zero-padded to the wider
 * end when either end has a leading zero (`{01..10}`: 01 ... 10); letters by code point (`{Z..a}`
 * holds `[`, `\`, ...). Undefined when the body is no range; a count when there are too many.
 */
export function rangeValues(body: string): string[] | { tooMany: bigint } | undefined {
  const letters = LETTER_RANGE.exec(body);
  if (letters) {
    const [from, to] = [letters[1].codePointAt(0) as number, letters[2].codePointAt(0) as number];
    return steps(BigInt(from), BigInt(to), 1n, (n) => String.fromCodePoint(Number(n)));
  }
  const numbers = NUMBER_RANGE.exec(body);
  if (!numbers) return undefined;
  const [, from, to, step] = numbers;
  const padded = /^-?0\d/.test(from) || /^-?0\d/.test(to);
  const width = padded ? Math.max(from.length, to.length) : 0;
  const text = (n: bigint) =>
    n < 0n ? `-${(-n).toString().padStart(width - 1, '0')}` : n.toString().padStart(width, '0');
  const by = step === undefined || BigInt(step) === 0n ? 1n : BigInt(step) < 0n ? -BigInt(step) : BigInt(step);
  return steps(BigInt(from), BigInt(to), by, text);
}

function steps(from: bigint, to: bigint, by: bigint, text: (n: bigint) => string): string[] | { tooMany: bigint } {
  const span = from <= to ? to - from : from - to;
  const count = span / by + 1n;
  if (count > BigInt(MAX_RANGE_VALUES)) return { tooMany: count };
  const out: string[] = [];
  for (let i = 0n; i < count; i++) out.push(text(from <= to ? from + i * by : from - i * by));
  return out;
}
