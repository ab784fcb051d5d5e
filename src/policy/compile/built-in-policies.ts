import { envOneOf } from '../../common/env-values';
import { assembleBundle } from './assemble-bundle';
import type { CompiledPolicy, PolicyBundle } from '../core/compiled';
import { passOutcome } from '../engine/policy-texts';
import { policyOf, ruleOf } from '../core/shapes';
import { emergencyStopRule } from '../rules/emergency-stop';
import { compileScope } from '../engine/scope';

/** Not a valid policy name in YAML, so no file can shadow it and no Exception can waive it. */
export const EMERGENCY_STOP_POLICY = 'emergency-stop (built-in)';

/** The `file` of a built-in policy's source. */
export const BUILT_IN_FILE = '(built-in)';

/** The names of the bundle's built-in policies (those withBuiltIns added): they come first, so only they are read. */
export function builtInNames(bundle: PolicyBundle): string[] {
  const names: string[] = [];
  for (const p of bundle.policies) {
    if (p.source.file !== BUILT_IN_FILE) break;
    names.push(p.name);
  }
  return names;
}

/** How many of the bundle's policies were loaded from files (all but the built-in ones). */
export const policiesFromFiles = (bundle: PolicyBundle): number => bundle.policies.length - builtInNames(bundle).length;

/** EMERGENCY_STOP_POLICY: the built-in emergency stop applies to every run (`enforce`, the default) or not (`off`). */
export type EmergencyStopSetting = 'enforce' | 'off';

/** EMERGENCY_STOP_POLICY, read the same way by the service and the CLI; a bad value is a ConfigError naming it. */
export function emergencyStopSetting(env: NodeJS.ProcessEnv): EmergencyStopSetting {
  return envOneOf(env, 'EMERGENCY_STOP_POLICY', ['enforce', 'off'], 'enforce');
}

/** Denies every run while the emergency stop is engaged; in force unless EMERGENCY_STOP_POLICY=off. */
export function emergencyStopPolicy(): CompiledPolicy {
  const path = 'rules[0].emergencyStop';
  const head = {
    name: EMERGENCY_STOP_POLICY,
    mode: 'enforce' as const,
    priority: 1000,
    source: { file: BUILT_IN_FILE, line: 0, col: 0 },
    rules: [ruleOf({ kind: emergencyStopRule.key, path, ...emergencyStopRule.compile({}) })],
  };
  const passed = passOutcome(head);
  return policyOf({
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
    whileRunning: undefined,
  });
}

/** The built-in policies for the setting: what the service, `eval` and `test` all add to a loaded set. */
export function builtInPolicies(emergencyStop: EmergencyStopSetting): readonly CompiledPolicy[] {
  return emergencyStop === 'enforce' ? [emergencyStopPolicy()] : [];
}

/**
 * The bundle with the built-in policies first (in bundle order), its index and needs rebuilt: the
 * policy set every decision is made on, in the service and in the CLI alike. Without built-ins, the
 * bundle itself.
 */
export function withBuiltIns(bundle: PolicyBundle, builtIns: readonly CompiledPolicy[]): PolicyBundle {
  if (builtIns.length === 0) return bundle;
  return assembleBundle({ ...bundle, policies: [...builtIns, ...bundle.policies] });
}
