import type { CompiledPolicy } from '../core/compiled';
import type { PolicyOutcome, PolicyResult } from '../core/decision';

/** Why a policy passed: the rules it checked (`passed: rules[0].environments, rules[1].actions`). */
function passReason(policy: Pick<CompiledPolicy, 'rules'>): string {
  return policy.rules.length === 0 ? 'no rules to check' : `passed: ${policy.rules.map((r) => r.path).join(', ')}`;
}

/** The outcome of every policy that contributes no modification: shared, never written to. */
export const NO_MODIFICATIONS: PolicyOutcome['modifications'] = Object.freeze([]);

/**
 * The outcome of a policy that applied and found nothing (its modifications, if any, are rendered
 * per decision): the same for every decision, so it is built when the policy is compiled and
 * shared by every decision (frozen: never written to).
 */
export function passOutcome(
  policy: Pick<CompiledPolicy, 'name' | 'mode' | 'priority' | 'source' | 'rules'>,
): PolicyOutcome {
  const result: PolicyResult = Object.freeze({
    policy: policy.name,
    mode: policy.mode,
    priority: policy.priority,
    result: 'pass',
    reasons: Object.freeze([passReason(policy)]) as string[],
    source: policy.source,
  });
  return Object.freeze({ result, modifications: NO_MODIFICATIONS });
}
