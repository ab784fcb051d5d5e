import { admitsValue, type Judgement, pinsKey, restricts } from '../policy/predicate/judge-path';
import { parsePredicate } from '../policy/predicate/parse-predicate';
import type { Path } from '../policy/predicate/predicate';
import { toPaths } from '../policy/predicate/to-paths';
import type { Doc } from './policy-set';
import type { DimName, Reading } from './term-types';
import { OTHER, type ValueClasses } from './value-classes';

/**
 * The step's `radius.predicate` as far as the `blastRadius` rules of the sets tell predicates apart
 * (docs/decisions/0038-predicates-by-judgement.md). A rule reads a predicate only through its ways
 * through (toPaths), and of each way only three judgements (judge-path.ts): whether it restricts
 * the targets, whether it pins each required key, whether it admits each forbidden value. It denies
 * (its one step's violations, all on that step) exactly when SOME way is bad for one of its checks
 * (does not restrict, does not pin, admits), or unknown for one (an opaque part: a query, a shape
 * the engine cannot read) unless `onUnknownShape: ignore`. So whether it denies is a function of
 * the predicate's worst level per check, and a class is the list of which rules deny.
 */
export const PREDICATE: DimName = 'predicate';

/** One blastRadius rule as far as it reads a predicate. */
interface RadiusRule {
  scoped: boolean;
  keys: string[];
  forbidden: Array<[string, string]>;
  /** `onUnknownShape: ignore`: an unknown judgement does not deny. */
  ignoreUnknown: boolean;
}

/** The blastRadius rules the sets write (each spec once). */
export interface PredicateChecks {
  rules: RadiusRule[];
}

/** A check's level on one way: 0 passes, 1 unknown (opaque), 2 the rule's bad case. */
type Level = 0 | 1 | 2;

/** More classes than this are not split: the dimension is incomplete (unknown, never proven). */
export const MAX_PREDICATE_CLASSES = 4_096;

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const asObject = (v: unknown): Doc => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Doc) : {});
const texts = (v: unknown): string[] => asList(v).filter((x): x is string => typeof x === 'string');

/** What the documents' blastRadius rules check (a property's own rules included). */
export function predicateChecks(docs: readonly Doc[]): PredicateChecks {
  const rules = new Map<string, RadiusRule>();
  for (const doc of docs)
    for (const rule of asList(doc.rules)) {
      const spec = asObject(asObject(rule).blastRadius);
      if (Object.keys(spec).length === 0) continue;
      const forbidden = Object.entries(asObject(spec.forbidValues)).flatMap(([k, vs]) =>
        texts(vs).map((v): [string, string] => [k, v]),
      );
      const r: RadiusRule = {
        scoped: spec.denyUnscoped === true,
        keys: [...new Set(texts(spec.requireKeys))].sort(),
        forbidden: forbidden.sort(),
        ignoreUnknown: spec.onUnknownShape === 'ignore',
      };
      rules.set(JSON.stringify(r), r);
    }
  return { rules: [...rules.values()] };
}

/** What a blastRadius rule reads: the predicate, and what makes the step targeted (its kind; the rest is the step's shape). */
export function predicateReads(reads: Map<DimName, Reading>): void {
  reads.set(PREDICATE, 'full');
  reads.set('actionKind', 'full');
}

/** The ways through a predicate as the rule reads them: none sent is the one way with no condition. */
function pathsOf(raw: unknown): Path[] {
  return raw === undefined || raw === null ? [[]] : toPaths(parsePredicate(raw));
}

const keepLevel = (j: Judgement): Level => (j.verdict === 'yes' ? 0 : j.verdict === 'unknown' ? 1 : 2);
const admitLevel = (j: Judgement): Level => (j.verdict === 'no' ? 0 : j.verdict === 'unknown' ? 1 : 2);

/** Whether the rule denies on this way: a check bad on it, or unknown and not ignored. */
function deniesOn(path: Path, r: RadiusRule): boolean {
  const levels: Level[] = r.scoped ? [keepLevel(restricts(path))] : [];
  for (const k of r.keys) levels.push(keepLevel(pinsKey(path, k)));
  for (const [k, v] of r.forbidden) levels.push(admitLevel(admitsValue(path, k, v)));
  return levels.some((l) => l === 2 || (l === 1 && !r.ignoreUnknown));
}

/** The class of a predicate (undefined: not sent): which rules deny it, one letter each (`d` denies, `-` not). */
export function predicateClassOf(raw: unknown, checks: PredicateChecks): string {
  const paths = pathsOf(raw);
  return checks.rules.map((r) => (paths.some((p) => deniesOn(p, r)) ? 'd' : '-')).join('');
}

/** A literal of the wire shapes (TargetPredicateAO) the representatives are built of. */
type Wire = Record<string, unknown>;
const OPAQUE: Wire = { query: `${OTHER}-query` };
/** Restricts the targets without a key any rule writes. */
const NAMED: Wire = { name: `${OTHER}-target` };

/** A value of `key` no check forbids. */
function otherValue(forbidden: readonly string[]): string {
  let v = `${OTHER}-attribute-value`;
  while (forbidden.includes(v)) v += '-x';
  return v;
}

/**
 * Ways through a predicate ("atoms") that make every class: every way's levels (over the checks of
 * all the rules) are the worst of some atoms' levels, and an OR of atoms has the worst of theirs.
 * A rule denies on the worst of several levels exactly when it denies on one of them, so the
 * classes are exactly the ORs of the atoms' classes (docs/decisions/0038-predicates-by-judgement.md).
 * `quiet`: every check passed; `admit(k, v)`: pins k to v only; `open(k)`: an opaque part and
 * nothing on k (k not pinned, each of its values maybe admitted); `unpinned(k)` with or without an
 * opaque part (whether k is pinned unknown, or not pinned); `opaque`: only an opaque part; `empty`.
 */
function atomsOf(checks: PredicateChecks): Wire[][] {
  const forbidden = new Map<string, string[]>();
  for (const r of checks.rules)
    for (const [k, v] of r.forbidden) forbidden.set(k, [...new Set([...(forbidden.get(k) ?? []), v])]);
  const required = [...new Set(checks.rules.flatMap((r) => r.keys))];
  const keys = [...new Set([...required, ...forbidden.keys()])];
  const values = (k: string) => forbidden.get(k) ?? [];
  const quietOn = (k: string): Wire => ({ key: k, operator: 'EQUALS', values: [otherValue(values(k))] });
  const unpinnedOn = (k: string): Wire =>
    values(k).length > 0
      ? { key: k, operator: 'NOT_EQUALS', values: values(k) }
      : { key: k, presenceOperator: 'PRESENT' };
  /** NAMED and each key quiet but `k`, which gets `on` (nothing when undefined). */
  const way = (k: string | undefined, on: Wire | undefined, opaque = false): Wire[] => [
    NAMED,
    ...(opaque ? [OPAQUE] : []),
    ...keys.flatMap((x) => (x !== k ? [quietOn(x)] : on ? [on] : [])),
  ];
  const atoms: Wire[][] = [way(undefined, undefined)];
  for (const [k, vs] of forbidden) for (const v of vs) atoms.push(way(k, { key: k, operator: 'EQUALS', values: [v] }));
  for (const k of keys) atoms.push(way(k, undefined, true));
  for (const k of required) atoms.push(way(k, unpinnedOn(k), true), way(k, unpinnedOn(k)));
  atoms.push([OPAQUE], []);
  return atoms;
}

/** One way as a predicate: a lone literal, or an AND of them (the empty AND selects every target). */
const andOf = (way: Wire[]): Wire => (way.length === 1 ? way[0] : { operator: 'AND', predicates: way });
const predicateOf = (ways: Wire[][]): Wire =>
  ways.length === 1 ? andOf(ways[0]) : { operator: 'OR', predicates: ways.map(andOf) };

const union = (a: string, b: string) => [...a].map((x, i) => (x === 'd' || b[i] === 'd' ? 'd' : '-')).join('');

/**
 * The predicate classes: not sent, then one predicate per class (which rules deny it), each checked
 * by computing its class as the rules read it. Past MAX_PREDICATE_CLASSES the dimension is incomplete.
 */
export function predicateClasses(checks: PredicateChecks): ValueClasses<Wire | undefined> {
  const [quiet, ...rest] = atomsOf(checks);
  const byClass = new Map<string, Wire[][]>([[predicateClassOf(andOf(quiet), checks), [quiet]]]);
  for (const atom of rest) {
    const own = predicateClassOf(andOf(atom), checks);
    for (const [known, ways] of [...byClass]) {
      const joined = union(known, own);
      if (byClass.has(joined)) continue;
      byClass.set(joined, ways[0] === quiet ? [atom] : [...ways, atom]);
      if (byClass.size > MAX_PREDICATE_CLASSES)
        return {
          values: [undefined, ...[...byClass.values()].map(predicateOf)],
          complete: false,
          why: `${checks.rules.length} blastRadius rules make more than ${MAX_PREDICATE_CLASSES} classes of radius.predicate`,
        };
    }
  }
  const values: Array<Wire | undefined> = [undefined];
  const wrong: string[] = [];
  for (const [key, ways] of byClass) {
    const predicate = predicateOf(ways);
    if (predicateClassOf(predicate, checks) !== key) wrong.push(key);
    values.push(predicate);
  }
  if (wrong.length > 0)
    return { values, complete: false, why: `no predicate found for class(es) ${wrong.join(', ')} of radius.predicate` };
  return { values, complete: true };
}
