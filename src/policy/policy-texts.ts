import type { CompiledPolicy } from './compiled';

/** Each policy's pass reason, built on its first decision and kept as long as the policy. */
const passReasons = new WeakMap<CompiledPolicy, string>();

/** Why a policy passed: the rules it checked (`passed: rules[0].environments, rules[1].actions`). */
export function passReason(policy: CompiledPolicy): string {
  let reason = passReasons.get(policy);
  if (reason === undefined) {
    reason = policy.rules.length === 0 ? 'no rules to check' : `passed: ${policy.rules.map((r) => r.path).join(', ')}`;
    passReasons.set(policy, reason);
  }
  return reason;
}
