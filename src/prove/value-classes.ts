import { compileGlobs } from '../policy/core/glob-matcher';
import { readGlob } from '../syntax/glob-syntax';
import { globCombinations } from './star-glob-automaton';

/**
 * The values of one dimension of a run that the analysis decides, one per class: two values of a
 * class are told apart by no rule or scope of the sets compared (docs/prove.md). `complete` says
 * whether every class is represented; when not, `why` names what the analysis could not split, and
 * no answer that reads the dimension is ever `proven`.
 */
export interface ValueClasses<V> {
  values: V[];
  complete: boolean;
  why?: string;
}

/** A name no policy writes: the class of every value the sets do not name. */
export const OTHER = 'prove-other';

/**
 * Names compared exactly, upper-cased as the engine reads them (teams, createdVia, action kinds:
 * engine/create-context.ts; `ß` is `SS` there, `ẞ` is not): each name written, one no set writes,
 * and none at all (a payload may omit the field: missing data never narrows a policy, so it is a
 * class of its own).
 */
export function nameClasses(written: Iterable<string>, withAbsent = true): ValueClasses<string | undefined> {
  const seen = new Map<string, string>();
  for (const name of written) if (!seen.has(name.toUpperCase())) seen.set(name.toUpperCase(), name);
  const other = `${OTHER}-${seen.size}`;
  return { values: [...seen.values(), other, ...(withAbsent ? [undefined] : [])], complete: true };
}

/**
 * Globs whose only special character is `*` (ASCII): the ones whose combinations are split exactly.
 * Read as the loader reads them (validation/syntax/glob-syntax.ts): nothing but text and `*` in the
 * tree, written as the tree says (no escape), so `*@sre.example.com` is simple (an `@` not before
 * `(` is text) and `@(a|b)`, `?`, classes and braces are not.
 */
const SIMPLE = /^[\x20-\x7e]*$/;
function isSimple(glob: string): boolean {
  if (!SIMPLE.test(glob) || glob.includes('\\')) return false;
  const read = readGlob(glob);
  if (!read.ok) return false;
  let written = '';
  for (const node of read.nodes) {
    if (node.kind === 'any') written += '*';
    else if (node.kind === 'text' && !node.text.includes('*')) written += node.text;
    else return false;
  }
  return written === glob;
}

/** Whether `text`, read as a glob, matches only itself (ignoring case): simple, without `*`. */
export const isLiteralText = (text: string): boolean => text !== '' && !text.includes('*') && isSimple(text);

interface Shape {
  literal?: string;
  prefix: string;
  middles: string[];
  suffix: string;
}

function shapeOf(glob: string): Shape {
  const parts = glob.toLowerCase().split('*');
  if (parts.length === 1) return { literal: parts[0], prefix: parts[0], middles: [], suffix: parts[0] };
  return { prefix: parts[0], middles: parts.slice(1, -1).filter((m) => m !== ''), suffix: parts[parts.length - 1] };
}

/** Every text matching `s` also matches `g` (a sufficient test for simple shapes, never a guess). */
function implies(s: Shape, g: Shape): boolean {
  if (g.literal !== undefined) return s.literal === g.literal;
  if (s.literal !== undefined) return false; // the literal was matched against g directly
  if (g.middles.length > 0) return false;
  if (g.prefix === '' && g.suffix === '') return true; // `*` or `**`: every non-empty text
  if (g.prefix !== '' && g.suffix !== '') return s.prefix.startsWith(g.prefix) && s.suffix.endsWith(g.suffix);
  if (g.prefix !== '') return s.prefix.startsWith(g.prefix);
  return s.suffix.endsWith(g.suffix); // `*x`; `*x*` is impliesInfix's
}

/** `*x*`: some literal part of s contains x. */
function impliesInfix(s: Shape, x: string): boolean {
  if (s.literal !== undefined) return s.literal.includes(x);
  return [s.prefix, ...s.middles, s.suffix].some((p) => p.includes(x));
}

const isInfixOnly = (g: Shape) =>
  g.literal === undefined && g.prefix === '' && g.suffix === '' && g.middles.length === 1;

/** A text matching every shape of `set` (simple shapes), or undefined when their prefixes or suffixes conflict. */
function buildText(set: Shape[]): string | undefined {
  const literal = set.find((s) => s.literal !== undefined);
  if (literal) return literal.literal === '' ? undefined : literal.literal;
  let prefix = '';
  let suffix = '';
  for (const s of set) {
    if (s.prefix.startsWith(prefix)) prefix = s.prefix;
    else if (!prefix.startsWith(s.prefix)) return undefined;
    if (s.suffix.endsWith(suffix)) suffix = s.suffix;
    else if (!suffix.endsWith(s.suffix)) return undefined;
  }
  const text = prefix + set.flatMap((s) => s.middles).join('') + suffix;
  return text === '' ? 'x' : text;
}

/** At most this many globs in one dimension are split into all their combinations (2^n of them). */
export const MAX_GLOBS = 12;

/**
 * Globs compared case-insensitively (action ids, experiment keys, target types): one text per
 * combination of globs it matches (each matched by the real matcher), and none at all. Every
 * combination of globs is either found or shown empty (a literal decides its own combination;
 * conflicting prefixes or suffixes; a glob implied by another), else the dimension is incomplete.
 */
export function globClasses(written: Iterable<string>, withAbsent = true): ValueClasses<string | undefined> {
  const globs = [...new Set(written)];
  const matchers = globs.map((g) => compileGlobs([g]));
  const vector = (text: string) => matchers.map((m) => (m(text) ? '1' : '0')).join('');
  const found = new Map<string, string>();
  const tryText = (text: string | undefined) => {
    if (text === undefined || text === '') return;
    const v = vector(text);
    if (!found.has(v)) found.set(v, text);
  };
  tryText(`${OTHER}-value`);
  for (const g of globs) tryText(buildText([shapeOf(g)]) ?? g);
  const absent = withAbsent ? [undefined] : [];
  const complex = globs.filter((g) => !isSimple(g));
  if (complex.length > 0)
    return {
      values: [...found.values(), ...absent],
      complete: false,
      why: `glob ${complex.map((g) => `"${g}"`).join(', ')} uses more than * (the analysis splits only globs of text and *)`,
    };
  const chains = prefixChainClasses(globs, vector);
  if (chains) return { values: [...chains, ...absent], complete: true };
  if (globs.length > MAX_GLOBS)
    return {
      values: [...found.values(), ...absent],
      complete: false,
      why: `${globs.length} distinct globs in one dimension (the analysis splits at most ${MAX_GLOBS})`,
    };
  const shapes = globs.map(shapeOf);
  const unresolved: string[] = [];
  for (let bits = 0; bits < 1 << globs.length; bits++) {
    const wanted = globs.map((_, i) => ((bits >> i) & 1 ? '1' : '0')).join('');
    if (found.has(wanted)) continue;
    const inSet = shapes.filter((_, i) => wanted[i] === '1');
    const text = inSet.length === 0 ? `${OTHER}-value` : buildText(inSet);
    if (text === undefined) continue; // conflicting prefixes, suffixes or literals: no text matches them all
    tryText(text);
    if (found.has(wanted)) continue;
    if (inSet.some((s) => s.literal !== undefined)) continue; // the literal's own combination is another
    const impliedOut = shapes.some(
      (g, i) =>
        wanted[i] === '0' && inSet.some((s) => (isInfixOnly(g) ? impliesInfix(s, g.middles[0]) : implies(s, g))),
    );
    if (!impliedOut) unresolved.push(wanted);
  }
  // Decided exactly by the globs' automata (star-glob-automaton.ts): each left is matched by the
  // text found, or by none. Trusted only where every text it found matches as it says.
  if (unresolved.length > 0) {
    const combos = globCombinations(globs);
    const agrees = [...combos.texts].every(([v, text]) => vector(text) === v);
    for (const wanted of [...unresolved]) {
      tryText(combos.texts.get(wanted));
      if (found.has(wanted) || (agrees && combos.complete && !combos.texts.has(wanted)))
        unresolved.splice(unresolved.indexOf(wanted), 1);
    }
  }
  if (unresolved.length > 0)
    return {
      values: [...found.values(), ...absent],
      complete: false,
      why: `no text found for ${unresolved.length} combination(s) of the globs ${globs.map((g) => `"${g}"`).join(', ')}`,
    };
  return { values: [...found.values(), ...absent], complete: true };
}

const PREFIX_END = '~prove';

/**
 * Globs that are all literals or `prefix*` (experiment keys such as `SHOP-*`, however many): a text
 * matches exactly the prefixes it starts with and the literal it is, so its class is the longest
 * glob prefix it starts with, or the literal. One text per prefix (the prefix and a tail no prefix
 * continues with), each literal and one text starting with no prefix are then every class; each
 * is checked with the real matcher against what that reasoning says it must match. Undefined when
 * the globs have other shapes or a check fails (the general split then applies).
 */
function prefixChainClasses(globs: readonly string[], vector: (text: string) => string): string[] | undefined {
  // The tail starts with `~`: no glob may hold one, so no prefix continues with the tail.
  if (!globs.every((g) => isSimple(g) && !g.includes('~'))) return undefined;
  const shapes = globs.map(shapeOf);
  const isPrefix = (s: Shape) => s.literal === undefined && s.middles.length === 0 && s.suffix === '';
  if (!shapes.every((s) => s.literal !== undefined || isPrefix(s))) return undefined;
  if (shapes.some((s) => s.literal === undefined && s.prefix === '')) return undefined; // `*`
  const expected = (text: string) =>
    shapes
      .map((s) =>
        s.literal !== undefined
          ? s.literal === text.toLowerCase()
            ? '1'
            : '0'
          : text.toLowerCase().startsWith(s.prefix)
            ? '1'
            : '0',
      )
      .join('');
  const texts = [
    `${PREFIX_END}-other`,
    ...shapes.filter((s) => s.literal !== undefined && s.literal !== '').map((s) => s.literal as string),
    ...shapes.filter((s) => s.literal === undefined).map((s) => `${s.prefix}${PREFIX_END}`),
  ];
  const byVector = new Map<string, string>();
  for (const text of texts) {
    const v = vector(text);
    if (v !== expected(text)) return undefined;
    if (!byVector.has(v)) byVector.set(v, text);
  }
  return [...byVector.values()];
}

/**
 * Numbers compared with thresholds (`n > max`, `n < min`): each threshold, a value between each two,
 * one below the lowest and one above the highest; `integer` keeps them whole (radius.percentage,
 * target counts), within [lo, hi].
 */
export function numberClasses(thresholds: Iterable<number>, opts: { integer: boolean; lo?: number; hi?: number }) {
  const ts = [...new Set(thresholds)].sort((a, b) => a - b);
  const out = new Set<number>();
  const add = (n: number) => {
    const v = opts.integer ? Math.floor(n) : n;
    if ((opts.lo === undefined || v >= opts.lo) && (opts.hi === undefined || v <= opts.hi)) out.add(v);
  };
  if (opts.lo !== undefined) add(opts.lo);
  if (opts.hi !== undefined) add(opts.hi);
  for (const [i, t] of ts.entries()) {
    add(t);
    if (opts.integer) {
      add(Math.floor(t) + 1);
      add(Math.ceil(t) - 1);
    } else {
      add(i === 0 ? t - 1 : (ts[i - 1] + t) / 2);
      if (i === ts.length - 1) add(t + 1);
    }
  }
  if (ts.length === 0 && out.size === 0) add(opts.lo ?? 1);
  return [...out].sort((a, b) => a - b);
}
