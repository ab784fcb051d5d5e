import { HttpError } from '../http/http-error';
import type { Logger } from '../observability/logger';
import type { PolicyBundle } from '../policy/compiled';
import type { PreflightPayload, StateSnapshot } from '../policy/types';
import { executionScopes } from './scope-key';
import { stateQuery } from './state-facts';
import { StateUnavailableError, type StateQuery, type StateStore, type StateView } from './state-store';

export type OnUnavailable = 'deny' | 'allow';

export interface PreflightStateDeps {
  store: StateStore;
  onUnavailable: OnUnavailable;
  logger: Logger;
  clock: () => Date;
}

/** Every state fact the bundle's rules need; callers compute it once per bundle. */
export function stateNeedsOf(bundle: PolicyBundle): string[] {
  const needs = new Set<string>();
  for (const policy of bundle.policies) for (const rule of policy.rules) for (const need of rule.needsState ?? []) needs.add(need);
  return [...needs];
}

/** What the rules see when the store is away and STATE_UNAVAILABLE=allow: nothing engaged, nothing running. */
function emptyView(query: StateQuery): StateView {
  const none = Object.fromEntries(query.scopes.map((s) => [s, []]));
  return {
    ...(query.emergencyStop ? { emergencyStop: { engaged: false } } : {}),
    ...(query.running ? { running: none } : {}),
    ...(query.endedSinceMs !== undefined ? { ended: none } : {}),
    ...(query.startedSinceMs !== undefined ? { started: none } : {}),
  };
}

/**
 * The preflight route's `loadState`: reads only what the bundle's rules need (needsState), in one
 * round trip. When the store is unreachable: a 503 that says so (the run is denied), or with
 * STATE_UNAVAILABLE=allow an empty state and a warning in the log (unsafe: guardrails with memory
 * are off until the store returns).
 */
export function preflightStateLoader(deps: PreflightStateDeps): (payload: PreflightPayload, bundle: PolicyBundle) => Promise<StateSnapshot | undefined> {
  const needsByBundle = new WeakMap<PolicyBundle, string[]>();
  return async (payload, bundle) => {
    let needs = needsByBundle.get(bundle);
    if (!needs) { needs = stateNeedsOf(bundle); needsByBundle.set(bundle, needs); }
    const now = deps.clock();
    const query = stateQuery(needs, executionScopes(payload.execution), now.getTime());
    if (!query) return undefined;
    try {
      return await deps.store.read(query, now);
    } catch (err) {
      if (!(err instanceof StateUnavailableError)) throw err;
      if (deps.onUnavailable === 'allow') {
        deps.logger.warn('state store unavailable; STATE_UNAVAILABLE=allow, so guardrails with memory are not applied', { error: err.message });
        return emptyView(query);
      }
      throw new HttpError(503, `the state store is unavailable (${err.message}), so emergency stop, concurrency, cool-down and quota policies cannot be checked and the run is denied (STATE_UNAVAILABLE=deny)`);
    }
  };
}
