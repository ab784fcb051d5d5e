import type { PolicyBundle } from '../policy/core/compiled';
import type { Capability, CapabilityName, Feature } from './capability';

/** A need the policy set makes and no capability present provides. */
export interface LackingNeed {
  readonly capability: CapabilityName;
  readonly feature: Feature;
  readonly lacking: 'error' | 'warning';
  readonly message: string;
  /** What in the policy set asks for it. */
  readonly asked: object;
}

/**
 * Every need of the capabilities present that the policy set makes and none of them provides:
 * the one place that decides what a policy set may ask of this service (start-up: logged, an
 * `error` refuses to start; /readyz: `lacking`, for the set in use).
 */
export function checkNeeds(capabilities: readonly Capability[], bundle: PolicyBundle | undefined): LackingNeed[] {
  if (!bundle) return [];
  const provided = new Set<Feature>(capabilities.flatMap((c) => c.provides));
  const out: LackingNeed[] = [];
  for (const capability of capabilities)
    for (const need of capability.needs) {
      if (provided.has(need.feature)) continue;
      const asked = need.asks(bundle);
      if (asked)
        out.push({
          capability: capability.name,
          feature: need.feature,
          lacking: need.lacking,
          message: need.message,
          asked,
        });
    }
  return out;
}
