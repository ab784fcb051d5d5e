import { decide } from '../policy/engine/decide';
import type { PolicyBundle } from '../policy/core/compiled';
import { type Assignment, runOf, type Space } from './dimensions';
import { type Blocks, termBlocks } from './coarse-classes';
import type { DimName, Term } from './term-types';

/** Past this many decisions of one term's classes the search stops and says so (never a proof). */
export const MAX_CELLS = 200_000;

/**
 * Decides terms on class representatives with the real engine, each (term, class) once: a term's
 * answer is a function of the classes it tells apart of the dimensions it reads (its blocks,
 * coarse-classes.ts), so its memo is keyed by them. `coarse: false` splits every dimension a term
 * reads in full as the space does, and searches no scope first (what the per-term classes are checked against).
 */
export class Judge {
  private readonly memo = new Map<Term, Map<string, boolean>>();
  private readonly blocks = new Map<Term, Map<DimName, Blocks>>();
  private readonly scopes = new Map<Term, Map<string, 'out' | 'in' | 'undecided'>>();
  decisions = 0;
  constructor(
    readonly space: Space,
    private readonly factBundles: readonly PolicyBundle[],
    readonly coarse = true,
  ) {}

  /** For each value of the dimension, the block the term tells apart (one block when it does not read it). */
  blocksOf(term: Term, dim: DimName): Blocks {
    let byDim = this.blocks.get(term);
    if (!byDim) this.blocks.set(term, (byDim = new Map()));
    let blocks = byDim.get(dim);
    if (!blocks) {
      blocks = this.coarse
        ? termBlocks(this.space, term, dim)
        : termBlocks(this.space, { ...term, docs: undefined }, dim);
      byDim.set(dim, blocks);
    }
    return blocks;
  }

  private keyOf(term: Term, a: Assignment): string {
    let key = '';
    for (const dim of term.reads.keys()) {
      const i = this.space.index.get(dim) as number;
      key += `${this.blocksOf(term, dim)[Math.max(a[i], 0)]},`;
    }
    return key;
  }

  /**
   * Whether a policy's scope (a term of a policy without rules, Term.scope) leaves the run out, takes
   * it in, or cannot decide (an environment name or team members that cannot be known: the policy then denies).
   */
  scopeOf(scope: Term, a: Assignment): 'out' | 'in' | 'undecided' {
    let memo = this.scopes.get(scope);
    if (!memo) this.scopes.set(scope, (memo = new Map()));
    const key = this.keyOf(scope, a);
    const known = memo.get(key);
    if (known !== undefined) return known;
    const run = runOf(this.space, a, this.factBundles);
    this.decisions++;
    const decision = decide(scope.bundle, run.payload, run.facts, run.now, { decisionId: 'prove', fullScan: true });
    const result = decision.results.find((r) => r.policy === scope.policy)?.result ?? 'skipped';
    const answer = result === 'skipped' ? 'out' : result === 'pass' ? 'in' : 'undecided';
    memo.set(key, answer);
    return answer;
  }

  /**
   * Whether the term (its policy with this one rule) denies the run of the assignment. A term with
   * its rule alone (no exceptions) denies a run its scope takes in exactly when the rule alone does:
   * the engine then checks that rule on the run's one action step (evaluate-policy.ts), so each is
   * decided once per block of what it reads, not once per combination of both; one its scope cannot
   * decide it denies (withUndecidedScope there).
   */
  denies(term: Term, a: Assignment): boolean {
    if (this.coarse && term.scope && term.rule) {
      const scope = this.scopeOf(term.scope, a);
      if (scope === 'out') return false;
      // A scope that cannot decide denies as a rule that cannot would, unless an exception waives the run.
      if (scope === 'in' && !this.denies(term.rule, a)) return false;
      return term.waiver === undefined || this.denies(term.waiver, a);
    }
    let memo = this.memo.get(term);
    if (!memo) this.memo.set(term, (memo = new Map()));
    const key = this.keyOf(term, a);
    const known = memo.get(key);
    if (known !== undefined) return known;
    const run = runOf(this.space, a, this.factBundles);
    this.decisions++;
    const decision = decide(term.bundle, run.payload, run.facts, run.now, {
      decisionId: 'prove',
      fullScan: term.applies,
    });
    const answer = term.applies
      ? decision.results.some((r) => r.policy === term.policy && r.result !== 'skipped')
      : !decision.allowed;
    memo.set(key, answer);
    return answer;
  }

  /**
   * The values of a dimension that some of `terms` can tell apart: the first of each combination of
   * their blocks (a dimension only some read whether it is sent: one sent, then one not).
   */
  choices(dim: DimName, terms: readonly Term[]): number[] {
    const i = this.space.index.get(dim) as number;
    const values = this.space.dims[i].values;
    const readers = terms.filter((t) => t.reads.has(dim));
    if (readers.length === 0) return [0];
    if (readers.every((t) => t.reads.get(dim) === 'presence')) {
      const sent = values.findIndex((v) => v !== undefined);
      const absent = values.indexOf(undefined);
      return [sent, absent].filter((j) => j >= 0);
    }
    const blocks = readers.map((t) => this.blocksOf(t, dim));
    const seen = new Set<string>();
    const out: number[] = [];
    values.forEach((_, j) => {
      const key = blocks.map((b) => b[j]).join(',');
      if (!seen.has(key)) {
        seen.add(key);
        out.push(j);
      }
    });
    return out;
  }
}

export interface Found {
  assignment: Assignment;
}

/** Whether `theirs` is one block on each of `own`'s blocks (it tells no two values of one of them apart). */
function coarserOn(own: Blocks, theirs: Blocks): boolean {
  const seen = new Map<number, number>();
  for (let j = 0; j < own.length; j++) {
    const known = seen.get(own[j]);
    if (known === undefined) seen.set(own[j], theirs[j]);
    else if (known !== theirs[j]) return false;
  }
  return true;
}

/**
 * The dimensions searched after must's, split into groups no term of mustNot joins (docs/decisions/0044):
 * a class's extension exists exactly when each group's does, and a group's depends only on the values
 * its terms read outside it, so it is searched once per such values (`memo`), not once per class.
 */
interface Group {
  /** Its places in the search order, ascending. */
  places: number[];
  /** For each place, the terms of mustNot decided once it is assigned. */
  due: Map<number, Term[]>;
  /** The dimensions (by index) its terms read that no place assigns, and the places of must's class whose picks they read (or bound a refined place by). */
  outside: number[];
  bounds: number[];
  /** The values of its places that no term denies, by the key of what it reads outside; null: none. */
  memo: Map<string, number[] | null>;
}

/**
 * The classes where `must` denies and none of `mustNot` does: one run for each class of the
 * dimensions `must` reads where such a run exists (the others are searched, depth first, pruned as
 * soon as a term of `mustNot` is decided and denies). `complete: false` when the search stopped at
 * MAX_CELLS; `accept` may end it at a run it takes (`stopped`).
 */
export function search(
  judge: Judge,
  must: Term,
  mustNot: readonly Term[],
  opts: { base?: Assignment; accept?: (a: Assignment) => boolean } = {},
): { found: Found[]; complete: boolean; stopped: boolean } {
  const { space } = judge;
  // Scope first: the dimensions of must's policy scope, so that a region it leaves out is left at once;
  // then its rule's (a term with its rule alone denies only where that rule does), then the rest.
  const scope =
    judge.coarse && must.scope && [...must.scope.reads.keys()].every((d) => must.reads.has(d)) ? must.scope : undefined;
  const scopeDims = scope ? [...scope.reads.keys()] : [];
  const rule =
    scope && must.rule && [...must.rule.reads.keys()].every((d) => must.reads.has(d)) ? must.rule : undefined;
  const ruleDims = rule ? [...rule.reads.keys()].filter((d) => !scopeDims.includes(d)) : [];
  const dimsOfMust = [
    ...scopeDims,
    ...ruleDims,
    ...[...must.reads.keys()].filter((d) => !scopeDims.includes(d) && !ruleDims.includes(d)),
  ];
  const ruleEnd = scopeDims.length + ruleDims.length;
  // A dimension a term of mustNot tells apart more finely than must is tried again in the extension,
  // over every value of must's block (the class's) that they tell apart; a term that does not split
  // must's blocks of it reads it where must's class picks it (its answer is one on the whole block).
  const refiners = new Map<DimName, Set<Term>>();
  for (const d of dimsOfMust) {
    const own = judge.blocksOf(must, d);
    const splits = mustNot.filter((t) => t.reads.has(d) && !coarserOn(own, judge.blocksOf(t, d)));
    if (splits.length > 0) refiners.set(d, new Set(splits));
  }
  const refined = dimsOfMust.filter((d) => refiners.has(d));
  const rest = [...new Set(mustNot.flatMap((t) => [...t.reads.keys()]))].filter((d) => !must.reads.has(d));
  rest.sort((x, y) => mustNot.filter((t) => t.reads.has(y)).length - mustNot.filter((t) => t.reads.has(x)).length);
  const order = [...dimsOfMust, ...refined, ...rest];
  const positions = order.map((d) => space.index.get(d) as number);
  const picked = new Map<number, number>();
  const M = dimsOfMust.length;
  const firstOf = (k: number) => dimsOfMust.indexOf(order[k]);
  const choices = order.map((d, k) => {
    if (k < M) {
      const list = judge.choices(d, [must]);
      return () => list;
    }
    if (k < M + refined.length) {
      const all = judge.choices(d, [must, ...(refiners.get(d) as Set<Term>)]);
      const first = firstOf(k);
      const blocks = judge.blocksOf(must, d);
      return () => all.filter((j) => blocks[j] === blocks[picked.get(first) as number]);
    }
    const list = judge.choices(d, mustNot);
    return () => list;
  });
  // The terms of mustNot decided once the first k dimensions are assigned (a refined one counts where it is refined).
  const placeOf = (t: Term, d: DimName) => (refiners.get(d)?.has(t) ? order.lastIndexOf(d) : order.indexOf(d));
  const level = new Map<Term, number>();
  for (const t of mustNot) {
    let deepest = -1;
    for (const d of t.reads.keys()) deepest = Math.max(deepest, placeOf(t, d));
    level.set(t, deepest);
  }
  const due = order.map((_, k) => mustNot.filter((t) => level.get(t) === k));
  const always = mustNot.filter((t) => level.get(t) === -1);
  const a: Assignment = opts.base ? [...opts.base] : space.dims.map(() => -1);
  const found: Found[] = [];
  let cells = 0;
  let complete = true;
  let stopped = false;
  if (always.some((t) => judge.denies(t, a))) return { found, complete, stopped };
  const groups = extensionGroups(order, M, due, firstOf, placeOf, space.index);

  /** The group's places assigned so that none of its terms denies (from its memo when what it reads outside was seen). */
  const solve = (g: Group): boolean => {
    const key = `${g.outside.map((i) => a[i]).join(',')};${g.bounds.map((k) => picked.get(k)).join(',')}`;
    const known = g.memo.get(key);
    if (known !== undefined) {
      if (known === null) return false;
      g.places.forEach((k, n) => {
        a[positions[k]] = known[n];
      });
      return true;
    }
    const step = (n: number): boolean => {
      if (n === g.places.length) return true;
      const k = g.places[n];
      const terms = g.due.get(k) ?? [];
      for (const j of choices[k]()) {
        a[positions[k]] = j;
        if (terms.some((t) => judge.denies(t, a))) continue;
        if (step(n + 1)) return true;
      }
      return false;
    };
    const ok = step(0);
    g.memo.set(key, ok ? g.places.map((k) => a[positions[k]]) : null);
    return ok;
  };
  /** Whether the class of must's dimensions extends to a run no term of mustNot denies (a is then that run). */
  const extend = (): boolean => {
    for (const g of groups) if (!solve(g)) return false;
    return true;
  };
  const extensionSlots = [...new Set(positions.slice(M))];
  const region = (k: number): boolean => {
    // A run must's policy scope leaves out is denied by no rule of that policy: the whole region below is left.
    if (scope && k === scopeDims.length && judge.scopeOf(scope, a) === 'out') return true;
    // Where its scope takes the run in, a term with its rule alone denies only where the rule does.
    if (rule && k === ruleEnd && judge.scopeOf(scope as Term, a) === 'in' && !judge.denies(rule, a)) return true;
    if (k === M) {
      if (++cells > MAX_CELLS) {
        complete = false;
        return false;
      }
      if (!judge.denies(must, a)) return true;
      const before = extensionSlots.map((i) => a[i]);
      const ok = extend();
      const run = [...a];
      extensionSlots.forEach((i, n) => {
        a[i] = before[n];
      });
      if (ok) {
        found.push({ assignment: run });
        if (opts.accept?.([...run])) {
          stopped = true;
          return false;
        }
      }
      return true;
    }
    for (const j of choices[k]()) {
      a[positions[k]] = j;
      picked.set(k, j);
      // A term of mustNot decided here that denies leaves every class below without a run.
      if (due[k].some((t) => judge.denies(t, a))) continue;
      if (!region(k + 1)) return false;
    }
    a[positions[k]] = -1;
    return true;
  };
  region(0);
  return { found, complete, stopped };
}

/** The groups of the extension's places (M onwards) joined by the terms decided there (search's `due`). */
function extensionGroups(
  order: readonly DimName[],
  M: number,
  due: readonly Term[][],
  firstOf: (k: number) => number,
  placeOf: (t: Term, d: DimName) => number,
  index: ReadonlyMap<DimName, number>,
): Group[] {
  const parent = order.map((_, k) => k);
  const root = (k: number): number => (parent[k] === k ? k : (parent[k] = root(parent[k])));
  // The extension's place of each dimension a term reads there (a refined one's later place).
  const placesOf = (t: Term) => [...t.reads.keys()].map((d) => placeOf(t, d)).filter((k) => k >= M);
  const terms = due.slice(M).flat();
  for (const t of terms) {
    const ps = placesOf(t);
    for (const p of ps.slice(1)) parent[root(p)] = root(ps[0]);
  }
  const byRoot = new Map<number, Group>();
  for (let k = M; k < order.length; k++) {
    const r = root(k);
    let g = byRoot.get(r);
    if (!g) byRoot.set(r, (g = { places: [], due: new Map(), outside: [], bounds: [], memo: new Map() }));
    g.places.push(k);
    if (due[k].length > 0) g.due.set(k, due[k]);
    if (firstOf(k) >= 0) g.bounds.push(firstOf(k));
  }
  for (const g of byRoot.values()) {
    // What its terms read before the extension: must's picks (by their place), and dimensions no place assigns.
    const bounds = new Set(g.bounds);
    const outside = new Set<number>();
    for (const ts of g.due.values())
      for (const t of ts)
        for (const d of t.reads.keys()) {
          const k = placeOf(t, d);
          if (k < 0) outside.add(index.get(d) as number);
          else if (k < M) bounds.add(k);
        }
    g.outside = [...outside];
    g.bounds = [...bounds];
  }
  return [...byRoot.values()];
}
