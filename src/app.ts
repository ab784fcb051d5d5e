import express, { type Express } from 'express';
import { randomUUID } from 'node:crypto';
import type { Logger } from './observability/logger';
import type { Metrics } from './observability/metrics';
import { disabledAuditLog, type AuditLog } from './observability/audit-log';
import type { PolicyStore } from './policy/policy-store';
import { errorHandler } from './http/error-handler';
import { healthRouter } from './http/health-routes';
import { HttpError } from './http/http-error';
import { preflightRouter, type PreflightDeps } from './http/preflight-route';
import { eventsRouter } from './http/events-route';
import { emergencyStopPolicy, withBuiltInPolicies } from './state/built-in-policies';
import type { GuardrailState } from './state/guardrail-state';
import { preflightStateLoader } from './state/preflight-state';

export interface AppDeps {
  store: PolicyStore;
  secrets: readonly string[];
  logger: Logger;
  metrics: Metrics;
  /** One line per answer to POST /preflight; nothing is written when absent. */
  audit?: AuditLog;
  bodyLimit?: string | number;
  clock?: () => Date;
  newId?: () => string;
  isShuttingDown?: () => boolean;
  loadState?: PreflightDeps['loadState'];
  /** Guardrails with memory: POST /events, state for the rules, the built-in emergency stop. */
  state?: GuardrailState;
}

const KNOWN_ROUTES = new Set(['/preflight', '/events', '/healthz', '/readyz', '/metrics']);

/** What /readyz reports about the state store (and what a preflight does while it is away). */
const stateHealth = (state: GuardrailState | undefined) => state && (() => ({ ...state.store.health(), onUnavailable: state.onUnavailable }));

/** The Express app with every route; no listen() (main.ts does that, tests use supertest). */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const { metrics } = deps;
  // preflight_state_store_up: the store's health at every scrape.
  const stateStore = deps.state?.store;
  if (stateStore) metrics.observeStateStore(() => stateStore.health());

  app.use((req, res, next) => {
    // A label from a fixed set: arbitrary paths must not grow the metric's series.
    const route = KNOWN_ROUTES.has(req.path) ? req.path : 'other';
    const end = metrics.requestDuration.startTimer({ route });
    // Decisions (allow/deny/error) are counted by observePreflight in the preflight route.
    res.on('finish', () => end({ status: String(res.statusCode) }));
    next();
  });

  app.use(healthRouter({ store: deps.store, signaturesEnforced: deps.secrets.length > 0, isShuttingDown: deps.isShuttingDown ?? (() => false), stateHealth: stateHealth(deps.state) }));
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.send(await metrics.registry.metrics());
  });
  const clock = deps.clock ?? (() => new Date());
  if (deps.state) app.use(eventsRouter({ secrets: deps.secrets, bodyLimit: deps.bodyLimit ?? '1mb', logger: deps.logger, metrics, clock, state: deps.state }));
  const builtIns = deps.state?.emergencyStop === 'enforce' ? [emergencyStopPolicy()] : [];
  app.use(preflightRouter({
    store: withBuiltInPolicies(deps.store, builtIns),
    secrets: deps.secrets,
    bodyLimit: deps.bodyLimit ?? '1mb',
    logger: deps.logger,
    metrics,
    audit: deps.audit ?? disabledAuditLog,
    clock,
    newId: deps.newId ?? randomUUID,
    loadState: deps.loadState ?? (deps.state && preflightStateLoader({ ...deps.state, logger: deps.logger, clock })),
  }));
  app.use((req, _res, next) => next(new HttpError(404, `no route ${req.method} ${req.path}; Steadybit's preflight webhook URL is POST /preflight`)));
  app.use(errorHandler(deps.logger));
  return app;
}
