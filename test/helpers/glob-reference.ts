import fc from 'fast-check';

/**
 * The meaning of a glob written out naively, to check the engine's compiled matcher against
 * (docs/policies.md, "Globs and names"): a tree of its own (not the engine's), printed as the
 * pattern text a policy would hold, and a matcher that tries every split of the value. A value is
 * its code points; `/`, `.` and `\` are characters like any other; two characters are the same
 * when a JavaScript `iu` regular expression says so (Unicode simple case folding). Deliberately
 * slow and short: only for the small patterns and values of the property tests.
 */
export type RefNode =
  | { t: 'text'; s: string }
  | { t: 'one' }
  | { t: 'any'; double: boolean }
  | { t: 'class'; negated: boolean; items: ClassItem[] }
  | { t: 'brace'; alternatives: RefNode[][] }
  | { t: 'range'; body: string }
  | { t: 'ext'; op: '@' | '!' | '?' | '*' | '+'; alternatives: RefNode[][] };
type ClassItem = { c: string } | { from: string; to: string } | { posix: keyof typeof POSIX };

/** POSIX classes in the C locale, as regex class bodies. */
const POSIX = {
  alnum: 'a-zA-Z0-9',
  alpha: 'a-zA-Z',
  digit: '0-9',
  lower: 'a-z',
  punct: '!-/:-@\\[-`{-~',
  space: '\\t-\\r ',
  word: 'a-zA-Z0-9_',
  xdigit: '0-9a-fA-F',
};

/** Characters patterns and values are made of: syntax, separators, dots, case pairs that fold oddly. */
export const ODD_CHARS = [
  'a', 'B', 'b', 'x', 'S', 's', 'ſ', 'k', 'K', '\u212a', 'i', 'I', 'ı', 'İ', 'σ', 'ς', 'Σ', 'ß', 'é', 'É',
  '😀', '\ud800', '0', '1', '2', '9', '-', '_', '.', '/', '\\', '*', '?', '[', ']', '{', '}', '(', ')',
  ',', '|', '!', '@', '+', '^', ':',
]; // biome-ignore format: one list of characters

const SYNTAX = new Set(['\\', '*', '?', '[', ']', '{', '}', '(', ')', ',', '|', '!', '@', '+']);
const escapeText = (s: string) => [...s].map((c) => (SYNTAX.has(c) ? `\\${c}` : c)).join('');
const escapeInClass = (c: string) => (['\\', ']', '[', '-', '^', '!'].includes(c) ? `\\${c}` : c);

export function print(nodes: readonly RefNode[]): string {
  return nodes.map(printNode).join('');
}

function printNode(n: RefNode): string {
  switch (n.t) {
    case 'text':
      return escapeText(n.s);
    case 'one':
      return '?';
    case 'any':
      return n.double ? '**' : '*';
    case 'class':
      return `[${n.negated ? '^' : ''}${n.items.map(printItem).join('')}]`;
    case 'brace':
      return `{${n.alternatives.map(print).join(',')}}`;
    case 'range':
      return `{${n.body}}`;
    case 'ext':
      return `${n.op}(${n.alternatives.map(print).join('|')})`;
  }
}

const printItem = (i: ClassItem) =>
  'c' in i ? escapeInClass(i.c) : 'posix' in i ? `[:${i.posix}:]` : `${escapeInClass(i.from)}-${escapeInClass(i.to)}`;

const hex = (c: string) => `\\u{${(c.codePointAt(0) as number).toString(16)}}`;
const sameChars = new Map<string, boolean>();
const sameChar = (a: string, b: string) => {
  const key = `${a} ${b}`;
  let same = sameChars.get(key);
  if (same === undefined) sameChars.set(key, (same = new RegExp(`^${hex(a)}$`, 'iu').test(b)));
  return same;
};
const itemSource = (i: ClassItem) =>
  'c' in i ? hex(i.c) : 'posix' in i ? POSIX[i.posix] : `${hex(i.from)}-${hex(i.to)}`;
const classes = new WeakMap<object, RegExp>();
const inClass = (n: RefNode & { t: 'class' }, c: string) => {
  let regex = classes.get(n);
  if (!regex)
    classes.set(n, (regex = new RegExp(`^[${n.negated ? '^' : ''}${n.items.map(itemSource).join('')}]$`, 'iu')));
  return regex.test(c);
};

/** The values of a range body, counted out one by one as bash's brace expansion lists them. */
export function rangeList(body: string): string[] {
  const parts = body.split('..');
  if (/^[a-zA-Z]$/.test(parts[0])) {
    const [a, b] = [parts[0].charCodeAt(0), parts[1].charCodeAt(0)];
    const out: string[] = [];
    for (let x = a; a <= b ? x <= b : x >= b; x += a <= b ? 1 : -1) out.push(String.fromCharCode(x));
    return out;
  }
  const [a, b] = [Number(parts[0]), Number(parts[1])];
  const step = Math.abs(Number(parts[2] ?? 1)) || 1;
  const pad = parts.slice(0, 2).some((p) => /^-?0[0-9]/.test(p)) ? Math.max(parts[0].length, parts[1].length) : 0;
  const out: string[] = [];
  for (let x = a; a <= b ? x <= b : x >= b; x += a <= b ? step : -step) {
    const digits = String(Math.abs(x));
    out.push(x < 0 ? `-${digits.padStart(pad - 1, '0')}` : digits.padStart(pad, '0'));
  }
  return out;
}

/** Whether the whole value is one of the strings the glob denotes (an empty value never matches). */
export function referenceMatches(nodes: readonly RefNode[], value: string): boolean {
  const cs = Array.from(value);
  const memo = new WeakMap<object, Map<string, boolean>>();
  /** Whether `thing` (a node, or a sequence from `at`) spans exactly cs[i..j), worked out once. */
  const once = (thing: object, key: string, work: () => boolean): boolean => {
    let known = memo.get(thing);
    if (!known) memo.set(thing, (known = new Map()));
    const seen = known.get(key);
    if (seen !== undefined) return seen;
    const result = work();
    known.set(key, result);
    return result;
  };
  const seq = (ns: readonly RefNode[], i: number, j: number, at = 0): boolean =>
    once(ns, `${at} ${i} ${j}`, () => {
      if (at === ns.length) return i === j;
      for (let k = i; k <= j; k++) if (node(ns[at], i, k) && seq(ns, k, j, at + 1)) return true;
      return false;
    });
  const someAlt = (alts: RefNode[][], i: number, j: number) => alts.some((a) => seq(a, i, j));
  /** Any number of non-empty pieces, each one alternative: `*(...)`. */
  const star = (alts: RefNode[][], i: number, j: number): boolean =>
    once(alts, `* ${i} ${j}`, () => {
      if (i === j) return true;
      for (let m = i + 1; m <= j; m++) if (someAlt(alts, i, m) && star(alts, m, j)) return true;
      return false;
    });
  const node = (n: RefNode, i: number, j: number): boolean => once(n, `${i} ${j}`, () => nodeNow(n, i, j));
  const nodeNow = (n: RefNode, i: number, j: number): boolean => {
    const piece = cs.slice(i, j);
    switch (n.t) {
      case 'text': {
        const want = Array.from(n.s);
        return want.length === piece.length && want.every((c, x) => sameChar(c, piece[x]));
      }
      case 'one':
        return piece.length === 1;
      case 'any':
        return true;
      case 'class':
        return piece.length === 1 && inClass(n, piece[0]);
      case 'brace':
        return someAlt(n.alternatives, i, j);
      case 'range':
        return rangeList(n.body).some((s) => node({ t: 'text', s }, i, j));
      case 'ext':
        if (n.op === '@') return someAlt(n.alternatives, i, j);
        if (n.op === '!') return !someAlt(n.alternatives, i, j);
        if (n.op === '?') return i === j || someAlt(n.alternatives, i, j);
        if (n.op === '*') return star(n.alternatives, i, j);
        for (let m = i; m <= j; m++) if (someAlt(n.alternatives, i, m) && star(n.alternatives, m, j)) return true;
        return false;
    }
  };
  return value !== '' && seq(nodes, 0, cs.length);
}

const char = fc.constantFrom(...ODD_CHARS);
const asciiChar = fc.constantFrom(...ODD_CHARS.filter((c) => c.charCodeAt(0) < 128));
const rangeBody = fc.oneof(
  fc
    .tuple(
      fc.integer({ min: -12, max: 12 }),
      fc.integer({ min: -12, max: 12 }),
      fc.boolean(),
      fc.option(fc.integer({ min: -3, max: 3 })),
    )
    .map(([a, b, padded, step]) => {
      const end = (n: number) => (padded && n >= 0 ? String(n).padStart(2, '0') : String(n));
      return `${end(a)}..${end(b)}${step === null ? '' : `..${step}`}`;
    }),
  fc
    .tuple(fc.constantFrom('a', 'f', 'Z', 'z', 'A'), fc.constantFrom('a', 'c', 'Z', 'B', 'z'))
    .map(([a, b]) => `${a}..${b}`),
);
const classItem: fc.Arbitrary<ClassItem> = fc.oneof(
  char.map((c) => ({ c })),
  fc.tuple(asciiChar, asciiChar).map(([a, b]) => (a <= b ? { from: a, to: b } : { from: b, to: a })),
  fc.constantFrom(...(Object.keys(POSIX) as Array<keyof typeof POSIX>)).map((posix) => ({ posix })),
);

/** A random glob tree of a few nodes, groups nested up to two deep. */
export const refGlob: fc.Arbitrary<RefNode[]> = fc.letrec<{ seq: RefNode[]; node: RefNode }>((tie) => ({
  seq: fc.array(tie('node'), { minLength: 1, maxLength: 3 }),
  node: fc.oneof(
    { maxDepth: 2, depthIdentifier: 'glob', withCrossShrink: true },
    fc.array(char, { minLength: 1, maxLength: 2 }).map((cs) => ({ t: 'text' as const, s: cs.join('') })),
    fc.constant({ t: 'one' as const }),
    fc.boolean().map((double) => ({ t: 'any' as const, double })),
    fc.record({
      t: fc.constant('class' as const),
      negated: fc.boolean(),
      items: fc.array(classItem, { minLength: 1, maxLength: 3 }),
    }),
    rangeBody.map((body) => ({ t: 'range' as const, body })),
    fc.record({ t: fc.constant('brace' as const), alternatives: fc.array(tie('seq'), { minLength: 2, maxLength: 2 }) }),
    fc.record({
      t: fc.constant('ext' as const),
      op: fc.constantFrom('@' as const, '!' as const, '?' as const, '*' as const, '+' as const),
      alternatives: fc.array(tie('seq'), { minLength: 1, maxLength: 2 }),
    }),
  ),
})).seq;

/** A string the glob probably denotes (a `!(...)` or negated class may miss), case and all varied. */
export function sampleOf(nodes: readonly RefNode[], pick: (n: number) => number): string {
  const one = () => ODD_CHARS[pick(ODD_CHARS.length)];
  const alt = (alts: RefNode[][]) => sampleOf(alts[pick(alts.length)], pick);
  return nodes
    .map((n): string => {
      switch (n.t) {
        case 'text':
          return [...n.s].map((c) => (pick(2) === 0 ? c : pick(2) === 0 ? c.toUpperCase() : c.toLowerCase())).join('');
        case 'one':
        case 'class':
          return one();
        case 'any':
          return Array.from({ length: pick(3) }, one).join('');
        case 'range': {
          const values = rangeList(n.body);
          return values[pick(values.length)];
        }
        case 'brace':
          return alt(n.alternatives);
        case 'ext':
          return n.op === '!'
            ? one()
            : Array.from({ length: n.op === '@' || n.op === '+' ? 1 + pick(2) : pick(3) }, () =>
                alt(n.alternatives),
              ).join('');
      }
    })
    .join('');
}

/** Values to try a glob on: samples of it, its own text, odd strings and the empty string. */
export const valuesFor = (nodes: readonly RefNode[]): fc.Arbitrary<string> =>
  fc.oneof(
    fc.infiniteStream(fc.nat()).map((s) => {
      const it = s[Symbol.iterator]();
      return sampleOf(nodes, (n) => (it.next().value as number) % n);
    }),
    fc.constant(print(nodes)),
    fc.array(fc.oneof(char, fc.constantFrom(' ', '\t', '..', './', '')), { maxLength: 6 }).map((cs) => cs.join('')),
    fc.string({ unit: 'grapheme', maxLength: 4 }),
  );
