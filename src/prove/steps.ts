import { assembleBundle } from '../policy/compile/assemble-bundle';
import type { PolicyBundle } from '../policy/core/compiled';
import { type Assignment, type Run, runOf } from './dimensions';
import { type Judge, search } from './search';
import type { Term } from './term-types';

/**
 * Runs of several action steps (docs/decisions/0027-runs-of-several-steps.md). A term's answer on
 * such a run is the OR of its answers on the run's one-step projections (the run with only that
 * action step, every run-level field kept) unless its rule sums over steps or its policy has two
 * exceptions scoped to steps (stepCoupling, terms.ts). The answers that rest on such a term are unknown for those runs; a
 * witness is looked for by repeating one step past a total, or by pairing two steps.
 */

/**
 * Why an answer that rests on these terms (diff: the changed rules; prove: the property's own) does
 * not cover runs of two or more action steps: one line per coupled term, a rule changed on both
 * sides said once. Other terms need nothing: a term that denies a projection denies the whole run.
 */
export function severalStepsGaps(terms: readonly Term[], prefix = ''): string[] {
  const out: string[] = [];
  for (const t of terms) {
    if (t.outside !== undefined || t.coupled === undefined) continue;
    const decided = t.totals
      ? 'runs of one action step, and of one step repeated past each total,'
      : 'only runs of one action step';
    const line = `runs of two or more action steps where ${prefix}${t.label} decides: ${t.coupled}; ${decided} were decided there`;
    if (!out.includes(line)) out.push(line);
  }
  return out;
}

/** More copies of one step than a witness is made of (the payload stays well under the body limit). */
const MAX_COPIES = 500;

/** The run with its one action step `copies` times (each step a copy of its own). */
export function copiesOf(run: Run, copies: number): Run {
  const [step] = run.payload.execution.steps ?? [];
  const steps = Array.from({ length: copies }, () => structuredClone(step));
  return { ...run, payload: { ...run.payload, execution: { ...run.payload.execution, steps } } };
}

/**
 * Runs of one action step repeated past a total of `term`'s targets rule: for each class where the
 * step counts toward a total with a target or more (the counted term denies it) and no term of
 * `mustNot` denies the step alone, the step repeated just past each cap is offered to `accept`, which
 * decides it with the whole sets and ends the search at a run it takes.
 */
export function searchCopies(
  judge: Judge,
  term: Term,
  mustNot: readonly Term[],
  bundles: readonly PolicyBundle[],
  accept: (run: Run, a: Assignment, copies: number) => boolean,
): boolean {
  const totals = term.totals;
  if (totals === undefined) return false;
  const counted: Term = {
    ...term,
    label: `${term.label} (a step counted toward its totals)`,
    key: `${term.key} counted`,
    bundle: totals.counted,
    // Its rule is not the one written: split as the space splits, and decided as it is.
    docs: undefined,
    rule: undefined,
    waiver: undefined,
    coupled: undefined,
    totals: undefined,
  };
  return search(judge, counted, mustNot, {
    accept: (a) => {
      const one = runOf(judge.space, a, bundles);
      const n = one.payload.execution.steps?.[0]?.totalTargetCount;
      if (typeof n !== 'number' || n < 1) return false;
      for (const cap of new Set(totals.caps)) {
        const copies = Math.max(2, Math.floor(cap / n) + 1);
        if (copies <= MAX_COPIES && accept(copiesOf(one, copies), a, copies)) return true;
      }
      return false;
    },
  }).stopped;
}

/** Pairs of steps tried for one term (each pair two decisions, one by each whole set). */
const MAX_PAIRS = 4_000;
/** Steps kept to pair each new one with. */
const PAIRED_STEPS = 64;

/**
 * Runs of two steps that two or more exceptions scoped to steps may each fail to waive, while each
 * waives one step alone: the term is searched without those exceptions (its other exceptions kept),
 * and each step class found where no term of `mustNot` denies the step alone is paired with those
 * found before it (the run-level fields of the later one), each pair offered to `accept`, which
 * decides it with the whole sets and ends the search at a run it takes. Not a proof: the answer
 * stays unknown for other runs of several steps.
 */
export function searchPairs(
  judge: Judge,
  term: Term,
  mustNot: readonly Term[],
  bundles: readonly PolicyBundle[],
  accept: (run: Run, first: Assignment, second: Assignment) => boolean,
): boolean {
  const own = term.bundle.exceptions;
  const stepScoped = (e: (typeof own)[number]) => e.policy === term.policy && e.match.hasStepFilter;
  if (own.filter(stepScoped).length < 2) return false;
  const unwaived: Term = {
    ...term,
    label: `${term.label} (without the exceptions scoped to steps)`,
    key: `${term.key} unwaived`,
    bundle: assembleBundle({ ...term.bundle, exceptions: own.filter((e) => !stepScoped(e)) }),
    rule: undefined,
    waiver: undefined,
    coupled: undefined,
    totals: undefined,
  };
  const seen: Assignment[] = [];
  // A step is paired once: classes that differ only in run-level fields (the time, the environment)
  // make the same step, and would spend the pairs on the steps found first.
  const steps = new Set<string>();
  let pairs = 0;
  return (
    search(judge, unwaived, mustNot, {
      accept: (a) => {
        const later = runOf(judge.space, a, bundles);
        const own = JSON.stringify(later.payload.execution.steps);
        if (steps.has(own)) return false;
        for (const first of seen) {
          if (++pairs > MAX_PAIRS) return true;
          const [step] = runOf(judge.space, first, bundles).payload.execution.steps ?? [];
          const steps = [step, ...(later.payload.execution.steps ?? [])];
          const run = { ...later, payload: { ...later.payload, execution: { ...later.payload.execution, steps } } };
          if (accept(run, first, a)) return true;
        }
        if (seen.length < PAIRED_STEPS) {
          steps.add(own);
          seen.push(a);
        }
        return false;
      },
    }).stopped && pairs <= MAX_PAIRS
  );
}
