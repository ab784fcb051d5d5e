import { builtInPolicies, emergencyStopSetting, withBuiltIns } from '../compile/built-in-policies';
import type { PolicyBundle } from '../core/compiled';
import { readSettings } from '../../common/bad-input-error';

/**
 * The policy set `eval` and `test` decide on: the loaded one with the built-in policies, exactly as
 * the service serves it (EMERGENCY_STOP_POLICY read the same way).
 */
export function servedBundle(loaded: PolicyBundle, env: NodeJS.ProcessEnv): PolicyBundle {
  return readSettings(() => withBuiltIns(loaded, builtInPolicies(emergencyStopSetting(env))));
}
