import type { PolicyBundle } from './compiled';
import { combine } from './combine';
import { evaluatePolicy, type PolicyOutcome } from './evaluate-policy';
import { buildFacts, nowText, type FactOptions } from './facts';
import type { Decision, PreflightPayload } from './types';

export interface EvaluateOptions extends FactOptions {
  /**
   * Visit every policy instead of the index's candidates: `results` then also lists the policies
   * skipped for their match scope (for a full explanation). The decision is the same either way.
   */
  fullScan?: boolean;
}

/**
 * The decision on one preflight payload: every policy whose match scope may include the run is
 * evaluated (found through the bundle's index, in bundle order), any enforcing denial denies.
 * Pure: the bundle, payload, clock and state snapshot fully determine the answer.
 */
export function evaluate(bundle: PolicyBundle, payload: PreflightPayload, opts: EvaluateOptions): Decision {
  const facts = buildFacts(bundle, payload, opts);
  const outcomes: PolicyOutcome[] = [];
  if (opts.fullScan) {
    for (const policy of bundle.policies) outcomes.push(evaluatePolicy(policy, facts, bundle.exceptions));
  } else {
    for (const position of bundle.index.candidates(facts)) outcomes.push(evaluatePolicy(bundle.policies[position], facts, bundle.exceptions));
  }
  const outOfScope = bundle.policies.length - outcomes.length;
  return combine(outcomes, { id: opts.decisionId, revision: bundle.revision, evaluatedAt: nowText(facts), outOfScope });
}
