import type { Finding } from './decision';

/**
 * One way a rule can answer, as `test --coverage` counts it (docs/test-coverage.md): a time window's
 * "inside" and "outside". A rule kind declares its branches from its spec (RuleKind.branches); which
 * one a decision took is read from what the rule found in that decision, never from a second
 * evaluation.
 */
export interface RuleBranch {
  /** Where the branch is written, inside the rule's spec, e.g. `['deny', '0']` (for its line). */
  path: string[];
  /** Short and stable, e.g. `deny[0] inside`: the branch's name in reports. */
  name: string;
  /** What it means, e.g. `inside the deny window "year-end" (2026-12-18 00:00 to ...)`. */
  label: string;
  /** Whether a decision in which the rule judged (and could decide) took this branch, from the rule's own findings. */
  taken(findings: readonly Finding[]): boolean;
}
