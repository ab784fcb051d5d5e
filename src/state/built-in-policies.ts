import type { CompiledPolicy, PolicyBundle } from '../policy/compiled';
import { buildPolicyIndex } from '../policy/policy-index';
import type { PolicyStore } from '../policy/policy-store';
import { emergencyStopRule } from '../policy/rules/emergency-stop';
import { ruleAnswer } from '../policy/facts';
import { passOutcome, passResult } from '../policy/policy-texts';
import { compileScope } from '../policy/scope';

/** Not a valid policy name in YAML, so no file can shadow it and no Exception can waive it. */
export const EMERGENCY_STOP_POLICY = 'emergency-stop (built-in)';

/** Denies every run while the emergency stop is engaged; in force unless EMERGENCY_STOP_POLICY=off. */
export function emergencyStopPolicy(): CompiledPolicy {
  const path = 'rules[0].emergencyStop';
  const head = {
    name: EMERGENCY_STOP_POLICY,
    mode: 'enforce' as const,
    priority: 1000,
    source: { file: '(built-in)', line: 0, col: 0 },
    rules: [{ kind: emergencyStopRule.key, path, ...emergencyStopRule.compile({}), answer: ruleAnswer() }],
  };
  const passed = passResult(head);
  // The fields in the order compilePolicy writes them, so built-in and loaded policies share a shape.
  return {
    name: head.name,
    description: 'Built in: no run starts while the Steadybit emergency stop (kill switch) is engaged.',
    mode: head.mode,
    priority: head.priority,
    source: head.source,
    matchSpec: undefined,
    match: compileScope(undefined, false),
    exclude: compileScope(undefined, true),
    rules: head.rules,
    message: undefined,
    modifications: [],
    passed,
    passedOutcome: passOutcome(passed),
  };
}

/**
 * A view of the policy store whose bundles also hold the built-in policies (first, in bundle
 * order). Each bundle is extended once; a reload swaps in a new bundle and so a new extension.
 */
export function withBuiltInPolicies(store: Pick<PolicyStore, 'current'>, builtIns: readonly CompiledPolicy[]): Pick<PolicyStore, 'current'> {
  if (builtIns.length === 0) return store;
  const extended = new WeakMap<PolicyBundle, PolicyBundle>();
  return {
    current() {
      const bundle = store.current();
      if (!bundle) return undefined;
      let out = extended.get(bundle);
      if (!out) {
        const policies = [...builtIns, ...bundle.policies];
        out = { ...bundle, policies, index: buildPolicyIndex(policies) };
        extended.set(bundle, out);
      }
      return out;
    },
  };
}
