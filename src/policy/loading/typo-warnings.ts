import type { LoadProblem } from '../compile/load-error';
import { looksLikeTypo } from '../compile/near-name';
import { OneEditIndex } from '../compile/one-edit-index';
import type { Located } from './policy-references';

/** One place a name is written, compared as `text` (ignoring case). */
export interface WrittenName {
  text: string;
  at: Located;
  /** How the warning names it: `environment "prodution"`. */
  subject: string;
  /** What to write instead when `meant` is meant (`meant` itself unless said). */
  fix?: (meant: string) => string;
}

/** One kind of name: environments, attribute keys, teams, action ids, ... */
export interface NameFamily {
  written: readonly WrittenName[];
  /** Names known without the set (aliases, what Steadybit sends), lower case. */
  known: ReadonlySet<string>;
  /** Why a known name is known: `which an alias defines`. */
  knownAs(name: string): string;
  /** What a typo costs: `a misspelt environment matches no run`. */
  cost: string;
  /** Names that win a tie between two spellings written equally often (`staging` over `stagin`), lower case. */
  preferred?: ReadonlySet<string>;
  /** Names never warned about (label keys of the user's own). */
  skip?(text: string): boolean;
}

interface Meant {
  name: string;
  /** Written as often as the name itself and not known: either may be the slip. */
  tie: boolean;
  count: number;
}

const warning = (at: Located, message: string): LoadProblem => ({
  file: at.file,
  line: at.line,
  col: at.col,
  path: at.path,
  message,
  severity: 'warning',
});

/** How often each spelling is written, ignoring case, and its first spelling as written. */
function counts(written: readonly WrittenName[]): Map<string, { n: number; as: string }> {
  const n = new Map<string, { n: number; as: string }>();
  for (const w of written) {
    const seen = n.get(w.text.toLowerCase());
    if (seen) seen.n++;
    else n.set(w.text.toLowerCase(), { n: 1, as: w.text });
  }
  return n;
}

/**
 * The spelling `text` is most likely a slip for: a known name one edit away, else one written at
 * least as often in the set, a preferred name counting half a time more (a tie when as often: then
 * neither can be told to be the slip).
 */
function likelyMeant(
  text: string,
  family: NameFamily,
  written: ReadonlyMap<string, { n: number; as: string }>,
  names: OneEditIndex,
): Meant | undefined {
  const known = family.known;
  const bonus = (name: string) => (family.preferred?.has(name) ? 0.5 : 0);
  const own = (written.get(text.toLowerCase())?.n ?? 0) + bonus(text.toLowerCase());
  let best: { name: string; weight: number; count: number } | undefined;
  for (const name of names.near(text.toLowerCase())) {
    if (!looksLikeTypo(text, name)) continue;
    const count = written.get(name)?.n ?? 0;
    const weight = known.has(name) ? Infinity : count + bonus(name);
    const shown = written.get(name)?.as ?? name;
    if (weight >= own && (!best || weight > best.weight))
      best = { name: known.has(name) ? name : shown, weight, count };
  }
  return best && { name: best.name, tie: best.weight === own, count: best.count };
}

const times = (n: number) => (n === 1 ? 'once' : `${n} times`);

/**
 * Warnings for the names of one family that validate but are likely typos: a name not known itself
 * that is one edit away from a known one or from one the set writes at least as often. Of two
 * spellings written equally often, both places are warned and named, and neither is told to become
 * the other.
 */
export function typoWarnings(family: NameFamily): LoadProblem[] {
  const written = new Map([...counts(family.written)].filter(([text]) => !family.known.has(text)));
  // Known names first, then the set's: the first of two equally likely names wins, as before.
  const names = new OneEditIndex([...family.known, ...written.keys()]);
  const answers = new Map<string, Meant | undefined>();
  const out: LoadProblem[] = [];
  for (const w of family.written) {
    const text = w.text.toLowerCase();
    if (family.known.has(text) || family.skip?.(w.text)) continue;
    if (!answers.has(text)) answers.set(text, likelyMeant(w.text, family, written, names));
    const meant = answers.get(text);
    if (meant === undefined) continue;
    const fix = w.fix ?? ((m: string) => m);
    out.push(
      warning(
        w.at,
        meant.tie
          ? `${w.subject} and "${meant.name}" differ by one letter and the set writes each ${times(meant.count)}: one of them is likely misspelt, use one spelling (${family.cost})`
          : `${w.subject} is one letter away from "${meant.name}", ${family.known.has(meant.name) ? family.knownAs(meant.name) : 'which the set names elsewhere'}: did you mean "${fix(meant.name)}"? (${family.cost})`,
      ),
    );
  }
  return out;
}
