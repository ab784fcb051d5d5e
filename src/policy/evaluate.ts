import type { PolicyBundle } from './compiled';
import { combine } from './combine';
import { evaluatePolicy } from './evaluate-policy';
import { buildFacts, type FactOptions } from './facts';
import type { Decision, PreflightPayload } from './types';

/**
 * The decision on one preflight payload: every policy in scope is evaluated, any enforcing denial
 * denies. Pure: the bundle, payload, clock and state snapshot fully determine the answer.
 */
export function evaluate(bundle: PolicyBundle, payload: PreflightPayload, opts: FactOptions): Decision {
  const facts = buildFacts(bundle, payload, opts);
  const outcomes = bundle.policies.map((policy) => evaluatePolicy(policy, facts, bundle.exceptions));
  return combine(outcomes, { id: opts.decisionId, revision: bundle.revision, now: opts.now });
}
