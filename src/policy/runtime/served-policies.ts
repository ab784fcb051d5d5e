import type { CompiledPolicy, PolicyBundle } from '../core/compiled';
import { withBuiltIns } from '../compile/built-in-policies';
import type { PolicyStore } from './policy-store';

/**
 * A view of the policy store whose bundles also hold the built-in policies (withBuiltIns). Each
 * loaded bundle is extended once, at its first use; a reload swaps in a new bundle and so a new
 * extension.
 */
export function servedPolicies(
  store: Pick<PolicyStore, 'current'>,
  builtIns: readonly CompiledPolicy[],
): Pick<PolicyStore, 'current'> {
  if (builtIns.length === 0) return store;
  let loaded: PolicyBundle | undefined;
  let served: PolicyBundle | undefined;
  return {
    current() {
      const bundle = store.current();
      if (bundle !== loaded) {
        loaded = bundle;
        served = bundle && withBuiltIns(bundle, builtIns);
      }
      return served;
    },
  };
}
