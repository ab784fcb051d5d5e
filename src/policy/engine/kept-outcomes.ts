import type { CompiledPolicy } from '../core/compiled';
import type { PolicyOutcome } from '../core/decision';

/**
 * Rule kinds whose answer is a function of the payload and the facts alone, never of the clock
 * (each read, with what it calls, for `now`, `Date` and state facts). A kind not listed (a time
 * window, a quota, a cooldown, a signal, a condition, a state fact, any new kind) is judged again
 * at every decision: leaving a kind out costs CPU, listing one that reads the clock would be wrong.
 */
export const TIMELESS_RULE_KINDS: ReadonlySet<string> = new Set([
  'actions',
  'blastRadius',
  'environments',
  'noMuting',
  'parameters',
  'perGroup',
  'targetAttributes',
  'targets',
]);

/**
 * Outcomes one decision may take from an earlier one on the same payload, the same facts and the
 * same bundle (the guard keeps one per run it watches: run-guard.ts), by the policy's position in
 * the bundle. Owned by its caller, never by the compiled bundle; decide() fills it.
 */
export type KeptOutcomes = Map<number, PolicyOutcome>;

/** Whether the policy's answer cannot depend on the clock: every rule of a timeless kind, no modification (they render the decision's id and time). */
export function timelessPolicy(policy: CompiledPolicy): boolean {
  return policy.modifications.length === 0 && policy.rules.every((r) => TIMELESS_RULE_KINDS.has(r.kind));
}

/**
 * Whether an outcome may be given again to a later decision on the same payload and facts: a skip
 * for the run's place outside the scope (the match scope and step filters read the payload and the
 * facts, never the clock: scope.ts; no rule was asked), or a pass of a timeless policy (neither
 * renders the decision's id or time). A finding is always judged again: its message may name the
 * time. So is a waiver, which is a skip with the exception named: the exception expires, or its
 * uses run out, while the run goes on.
 */
export function keepable(policy: CompiledPolicy, outcome: PolicyOutcome): boolean {
  const { result, exception } = outcome.result;
  if (result === 'skipped') return exception === undefined;
  return result === 'pass' && timelessPolicy(policy);
}
