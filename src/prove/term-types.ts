import type { PolicyBundle } from '../policy/core/compiled';
import type { Doc } from './policy-set';

/*
 * The types the analysis's modules share (terms.ts makes terms, dimensions.ts and target-classes.ts
 * the classes they are decided on, search.ts and steps.ts search them): here so none of those
 * imports another only for a type.
 */

/**
 * The dimensions of a run the analysis splits into classes (docs/prove.md): `env` (the run's
 * environments with their names and aliases), `team`, `key` (experiment key), `via` (createdVia),
 * `version`, who started it (`starter`: `execution.createdBy.username`, `starterEmail`: its email), the one action step's `actionId`, `actionKind`, `count` (totalTargetCount), `pct`
 * (radius.percentage), `maximum` (radius.maximum), `targetType`, each step parameter (`param:<name>`),
 * the time of the run (`time`) and the emergency stop (`estop`); the step's targets: `listing` and one
 * `attr:<key>` per attribute key a target rule writes (target-classes.ts).
 */
export type DimName = string;

/** How a term reads a dimension: its value, or only whether it is sent (an action step is one that names anything). */
export type Reading = 'full' | 'presence';

/**
 * One rule of one enforcing policy, decided alone: the policy with only this rule (its scope and its
 * exceptions kept) in a bundle of its own. For a run of one action step, the set denies exactly
 * when one of its terms does (docs/decisions/0020-prove-by-classes.md), so the analysis searches
 * terms, and every answer it prints is decided again with the whole set.
 */
export interface Term {
  /** `production-guardrails rules[2].targets`. */
  label: string;
  policy: string;
  /** Identity across sets: the same key decides every run alike (the policy's scope, the rule, its exceptions, the aliases). */
  key: string;
  reads: ReadonlyMap<DimName, Reading>;
  /** Why the term is outside the fragment, or undefined when its answer is constant on every class. */
  outside?: string;
  bundle: PolicyBundle;
  /** The term is true when its policy applies to the run (a property's scope), not when it denies. */
  applies?: boolean;
  /** Why its answer on a run of several action steps may not follow from its one-step projections (stepCoupling, terms.ts). */
  coupled?: string;
  /** Its targets rule's totals across steps, searched by repeating a step (searchCopies, steps.ts). */
  totals?: Totals;
  /**
   * The documents whose written values it compares (its policy's match and exclude, its one rule, its
   * exceptions): the classes it tells apart are split from these (coarse-classes.ts). Absent: the space's own.
   */
  docs?: readonly Doc[];
  /** Its policy's scope alone (no rule): a run that scope leaves out is denied by no rule of it (search.ts searches that first). */
  scope?: Term;
  /**
   * Its rule alone, in a policy without scope or exceptions: on a run of one action step its scope
   * takes in (and decides), the term denies exactly when this does and no exception waives the run (search.ts).
   */
  rule?: Term;
  /**
   * Where its policy has exceptions: whether none waives the run (its policy without scope, a rule
   * that always denies, the exceptions); the term denies exactly where `rule` (or an undecided scope)
   * and this both do (search.ts, terms.ts waiverTerm).
   */
  waiver?: Term;
}

/** A targets rule's totals: the caps, and the term's policy with "a step counted toward them" in their place. */
export interface Totals {
  caps: number[];
  /** The policy with the rule's totals replaced by maxPerStep 0: it denies a step that counts toward one with a target or more. */
  counted: PolicyBundle;
}
