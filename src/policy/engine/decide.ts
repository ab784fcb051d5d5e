import type { PolicyBundle } from '../core/compiled';
import { combine } from './combine';
import { answerProbe } from './connect-probe';
import { createContext } from './create-context';
import { nowText } from '../core/evaluation-context';
import { evaluatePolicy } from './evaluate-policy';
import { keepable, type KeptOutcomes } from './kept-outcomes';
import type { Facts } from '../facts/facts';
import type { Decision, PolicyOutcome, PreflightPayload } from '../core/decision';

export interface DecideOptions {
  /** The decision's id: in its message, its modifications' placeholders and the audit line. */
  decisionId: string;
  /**
   * Visit every policy instead of the index's candidates: `results` then also lists the policies
   * skipped for their match scope (for a full explanation). The decision is the same either way.
   */
  fullScan?: boolean;
  /**
   * Outcomes of an earlier decision on this same payload, with these same facts and this bundle
   * (kept-outcomes.ts: passes and skips of policies that never read the clock): given again instead
   * of evaluating their policy, and filled with this decision's. The caller keeps it, and drops it
   * when the payload, the facts or the bundle change.
   */
  kept?: KeptOutcomes;
}

/**
 * The decision on one preflight payload: every policy whose match scope may include the run is
 * evaluated (found through the bundle's index, in bundle order), any enforcing denial denies.
 * Pure and synchronous: the bundle, payload, facts (gathered before, factGatherer) and `now` fully
 * determine the answer, so a recorded decision can be replayed. The bundle is only read; what the
 * decision computes lives in its own EvaluationContext.
 */
export function decide(
  bundle: PolicyBundle,
  payload: PreflightPayload,
  facts: Facts,
  now: Date,
  opts: DecideOptions,
): Decision {
  const ctx = createContext(bundle, payload, facts, now, opts.decisionId);
  const outcomes: PolicyOutcome[] = [];
  if (opts.fullScan) {
    for (const policy of bundle.policies) outcomes.push(evaluatePolicy(policy, ctx, bundle.exceptionsByPolicy));
  } else {
    const kept = opts.kept;
    for (const position of bundle.index.candidates(ctx)) {
      const known = kept?.get(position);
      if (known !== undefined) {
        outcomes.push(known);
        continue;
      }
      const policy = bundle.policies[position];
      const outcome = evaluatePolicy(policy, ctx, bundle.exceptionsByPolicy);
      if (kept && keepable(policy, outcome)) kept.set(position, outcome);
      outcomes.push(outcome);
    }
  }
  const outOfScope = bundle.policies.length - outcomes.length;
  const decision = combine(outcomes, {
    id: opts.decisionId,
    revision: bundle.revision,
    evaluatedAt: nowText(ctx),
    outOfScope,
  });
  // A `connect --probe` run is denied by design, naming its nonce (connect-probe.ts).
  return answerProbe(payload.execution, decision);
}
