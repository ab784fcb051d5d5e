import { Router } from 'express';
import { builtInNames, policiesFromFiles } from '../policy/compile/built-in-policies';
import type { PolicyStore } from '../policy/runtime/policy-store';
import type { PolicySync } from '../policy/runtime/policy-sync';
import { STARTER_POLICIES_NOTICE } from '../policy/loading/starter-policies';
import type { Capability } from './capability';
import { checkNeeds } from './check-needs';

export interface HealthDeps {
  store: PolicyStore;
  /** The policy set decisions are made on (the loaded one with the built-in policies): what /readyz counts. */
  served?: Pick<PolicyStore, 'current'>;
  signaturesEnforced: boolean;
  isShuttingDown: () => boolean;
  /** Whether the policy files on disk are the set served (not a readiness condition: the set in use keeps serving). */
  policySync?: () => PolicySync | undefined;
  /** True while POLICY_DIR is the bundled starter set: /readyz says so (starterPolicies, notice). */
  starterPolicies?: boolean;
  /**
   * The service's capabilities (service-capabilities.ts), each with a readiness shown under its
   * name: the state store, the Platform API sync, the guard. None is a readiness condition (while
   * the state store is away preflights deny with a message; an API outage must not take the gate down).
   */
  capabilities?: readonly Capability[];
}

export const UNSIGNED_WARNING =
  'WEBHOOK_SECRET is not set: unsigned requests are accepted; anyone who can reach this service can decide runs';

/** Each capability's readiness, under its name, in the capabilities' order. */
function readiness(capabilities: readonly Capability[]): Record<string, object | undefined> {
  const out: Record<string, object | undefined> = {};
  for (const c of capabilities) if (c.readiness) out[c.name] = c.readiness();
  return out;
}

function lackingOf(capabilities: readonly Capability[], bundle: Parameters<typeof checkNeeds>[1]) {
  const lacking = checkNeeds(capabilities, bundle).map(({ capability, feature, lacking, message, asked }) => ({
    capability,
    feature,
    lacking,
    message,
    asked,
  }));
  return lacking.length > 0 ? { lacking } : {};
}

/** `/healthz`: the process is alive. `/readyz`: 200 only while a valid policy set is loaded. */
export function healthRouter(deps: HealthDeps): Router {
  const router = Router();
  const capabilities = deps.capabilities ?? [];
  router.get('/healthz', (_req, res) => {
    res.status(200).json({ status: 'alive' });
  });
  router.get('/readyz', (_req, res) => {
    const bundle = (deps.served ?? deps.store).current();
    // The store's set: the one loaded, with the built-in policies when the reloader served it so.
    const fromFiles = deps.store.current();
    const lastLoad = deps.store.lastLoad();
    const body = {
      signaturesEnforced: deps.signaturesEnforced,
      ...(deps.signaturesEnforced ? {} : { warning: UNSIGNED_WARNING }),
      revision: bundle?.revision,
      // Every policy a decision is made on, as the decision's message counts them: the built-in ones too.
      policies: bundle?.policies.length ?? 0,
      builtInPolicies: bundle ? builtInNames(bundle) : [],
      // The policies read from POLICY_DIR (what preflight_policies_loaded and `validate` count).
      policiesFromFiles: fromFiles ? policiesFromFiles(fromFiles) : 0,
      exceptions: bundle?.exceptions.length ?? 0,
      starterPolicies: deps.starterPolicies === true,
      ...(deps.starterPolicies ? { notice: STARTER_POLICIES_NOTICE } : {}),
      loadedAt: bundle?.loadedAt.toISOString(),
      lastLoad,
      ...(deps.policySync ? { policyFiles: deps.policySync() } : {}),
      ...readiness(capabilities),
      capabilities: capabilities.map((c) => c.name),
      // What the policy set in use asks that this service lacks (each also logged at start).
      ...lackingOf(capabilities, fromFiles),
    };
    if (deps.isShuttingDown()) {
      res.status(503).json({ status: 'shutting down', message: 'preflight-gate is shutting down', ...body });
    } else if (!bundle) {
      res.status(503).json({ status: 'not ready', message: 'no valid policy set is loaded', ...body });
    } else {
      res.status(200).json({ status: 'ready', ...body });
    }
  });
  return router;
}
