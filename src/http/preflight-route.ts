import { Router, type Request, type Response } from 'express';
import { describeFieldErrors, validatePreflightPayload } from '../payload/validate-payload';
import { evaluate } from '../policy/evaluate';
import type { PolicyStore } from '../policy/policy-store';
import type { Decision, PreflightPayload, StateSnapshot } from '../policy/types';
import type { PolicyBundle } from '../policy/compiled';
import type { Logger } from '../observability/logger';
import type { Metrics } from '../observability/metrics';
import type { AuditLog } from '../observability/audit-log';
import { observePreflight } from '../observability/observe-preflight';
import { HttpError } from './http-error';
import { signedJsonBody } from './signed-json-body';

export interface PreflightDeps {
  /** Only `current()` is used: app.ts may pass a view that adds built-in policies. */
  store: Pick<PolicyStore, 'current'>;
  secrets: readonly string[];
  bodyLimit: string | number;
  logger: Logger;
  metrics: Metrics;
  audit: AuditLog;
  clock: () => Date;
  newId: () => string;
  /** Loads the state facts the bundle's rules need (guardrails with memory); optional. */
  loadState?: (payload: PreflightPayload, bundle: PolicyBundle) => Promise<StateSnapshot | undefined>;
}

/** Translates a Decision to Steadybit's answer: 200 with modifications, or 403 with the reason. */
function answer(res: Response, decision: Decision, explain: boolean): void {
  res.setHeader('X-Preflight-Decision-Id', decision.id);
  res.setHeader('X-Preflight-Policy-Revision', decision.revision);
  const explanation = explain ? { explanation: decision } : {};
  if (decision.allowed) res.status(200).json({ message: decision.message, modifications: decision.modifications, ...explanation });
  else res.status(403).json({ message: decision.message, ...explanation });
}

export function preflightRouter(deps: PreflightDeps): Router {
  const router = Router();
  const observe = observePreflight({ ...deps, currentRevision: () => deps.store.current()?.revision });
  router.post('/preflight', observe, ...signedJsonBody(deps), async (req: Request, res: Response) => {
    const checked = validatePreflightPayload(res.locals.body);
    if (!checked.ok) {
      throw new HttpError(400, `invalid preflight payload: ${describeFieldErrors(checked.errors)}`, { errors: checked.errors });
    }
    const bundle = deps.store.current();
    if (!bundle) throw new HttpError(503, 'no valid policy set is loaded, so no run may start; see /readyz and the service log');
    const payload = checked.payload;
    const state = deps.loadState ? await deps.loadState(payload, bundle) : undefined;
    const decisionId = typeof res.locals.decisionId === 'string' ? res.locals.decisionId : deps.newId();
    // ?explain=true visits every policy, so the explanation also lists those skipped for their scope.
    const explain = req.query.explain === 'true';
    const decision = evaluate(bundle, payload, { now: deps.clock(), decisionId, state, fullScan: explain });
    // observePreflight counts the answer and writes its audit line from this.
    res.locals.decision = decision;
    answer(res, decision, explain);
  });
  return router;
}
