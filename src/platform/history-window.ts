import type { PolicyBundle } from '../policy/compiled';
import { stateQuery } from '../state/state-facts';

/**
 * How far back the bundle's cool-down and quota rules look: the ended-runs search rebuilds that
 * much history (0 when no rule looks back). Read from the rules' declared state needs.
 */
export function historyWindowMs(bundle: PolicyBundle | undefined): number {
  if (!bundle) return 0;
  const needs = new Set<string>();
  for (const policy of bundle.policies) for (const rule of policy.rules) for (const need of rule.needsState ?? []) needs.add(need);
  const query = stateQuery(needs, [], 0);
  return Math.max(0, -(query?.endedSinceMs ?? 0), -(query?.startedSinceMs ?? 0));
}
