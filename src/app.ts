import { playgroundRouter } from './http/playground-routes';
import type { PageFile } from './playground/playground-page';
import express from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { getHeapStatistics } from 'node:v8';
import bytes from 'bytes';
import type { Logger } from './observability/logger';
import type { Metrics } from './observability/metrics';
import { countRefusedEvent } from './observability/observe-events';
import { disabledAuditLog, type AuditLog } from './observability/audit-log';
import type { PolicyStore } from './policy/runtime/policy-store';
import { errorHandler } from './http/error-handler';
import { healthRouter, type HealthDeps } from './http/health-routes';
import { HttpError } from './http/http-error';
import { bodyBudget, budgetFromHeap } from './http/body-budget';
import { framingProblem } from './http/request-framing';
import { refuseAndClose } from './http/refuse-and-close';
import { isPreflightRequest, preflightHandler, type PreflightDeps } from './http/preflight-route';
import { eventsRouter } from './http/events-route';
import { servedPolicies } from './policy/runtime/served-policies';
import { builtInPolicies } from './policy/loading/built-in-policies';
import { factGatherer } from './policy/engine/gather-facts';
import type { FactSource } from './policy/core/fact-source';
import type { GuardrailState } from './state/guardrail-state';
import { assembleFactSources } from './fact-sources';
import { timeRequest } from './observability/request-timer';
import { DEFAULT_BODY_LIMIT } from './config';
import { fixedSecrets, type WebhookSecrets } from './signature/webhook-secrets';
import type { Notifier } from './notify/notifier';
import type { RunGuard } from './guard/run-guard';

export interface AppDeps {
  store: PolicyStore;
  secrets: readonly string[];
  /** WEBHOOK_SECRET_FILE, re-read while running; replaces `secrets` when given. */
  secretFile?: WebhookSecrets;
  logger: Logger;
  metrics: Metrics;
  /** One line per answer to POST /preflight; nothing is written when absent. */
  audit?: AuditLog;
  bodyLimit?: string | number;
  /** BODY_BUDGET in bytes: request bodies read or decided at once (default: an eighth of V8's heap limit). */
  bodyBudget?: number;
  clock?: () => Date;
  newId?: () => string;
  isShuttingDown?: () => boolean;
  /** Records every decision (DECISION_ARCHIVE, docs/replay.md); nothing is recorded when absent. */
  archive?: PreflightDeps['archive'];
  /** Guardrails with memory: POST /events, state for the rules, the built-in emergency stop. */
  state?: GuardrailState;
  /** The Steadybit Platform API sync, shown in /readyz (docs/platform-api.md); absent when not configured. */
  platformHealth?: () => object;
  /** Whether the policy files on disk are the set served (policy-reloader.ts), shown on /readyz. */
  policySync?: HealthDeps['policySync'];
  /** POLICY_DIR is the bundled starter set (/readyz says so). */
  starterPolicies?: boolean;
  /** Fact sources besides the state store's (assembleFactSources: live signals, the Steadybit Platform API), asked after it. */
  factSources?: readonly FactSource[];
  /** Notifications of decisions (docs/notifications.md); none when absent. The emergency stop is told by the state store (notifying-state-store.ts). */
  notifier?: Notifier;
  /** Replaces gathering facts from the sources (tests: a source that fails). */
  gatherFacts?: PreflightDeps['gather'];
  /** Guards allowed runs while they are in progress (docs/guard.md): keeps each allowed run, shown in /readyz. */
  guard?: Pick<RunGuard, 'keep' | 'health'>;
  /** The playground page's files (PLAYGROUND=on, docs/playground.md), served at /playground/; absent: no such route. */
  playground?: ReadonlyMap<string, PageFile>;
}

const KNOWN_ROUTES = new Set(['/preflight', '/events', '/healthz', '/readyz', '/metrics']);

/** What /readyz reports about the state store (and what a preflight does while it is away). */
const stateHealth = (state: GuardrailState | undefined) =>
  state && (() => ({ ...state.store.health(), onUnavailable: state.onUnavailable }));

function bodyLimitBytes(limit: string | number): number {
  const parsed = typeof limit === 'number' ? limit : bytes.parse(limit);
  if (parsed === null || !Number.isFinite(parsed)) throw new RangeError(`body limit ${String(limit)} is not a size`);
  return parsed;
}

/** Answers every request of the service; give it to http.createServer (server.ts) or supertest. */
export type App = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * POST /preflight on its own node:http handler (the hot path), every other route on Express.
 * No listen() here: server.ts does that, tests use supertest.
 */
export function createApp(deps: AppDeps): App {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const { metrics } = deps;
  // preflight_state_store_up: the store's health at every scrape.
  const stateStore = deps.state?.store;
  if (stateStore) metrics.observeStateStore(() => stateStore.health());

  app.use((req, res, next) => {
    // A label from a fixed set: arbitrary paths must not grow the metric's series.
    timeRequest(metrics, KNOWN_ROUTES.has(req.path) ? req.path : 'other', res);
    next();
  });

  // The policy set every decision is made on: the loaded one with the built-in policies (the same
  // for `eval` and `test`); /readyz counts the same policies a decision's message does.
  const served = servedPolicies(deps.store, builtInPolicies(deps.state?.emergencyStop ?? 'off'));
  app.use(
    healthRouter({
      store: deps.store,
      served,
      signaturesEnforced: deps.secretFile !== undefined || deps.secrets.length > 0,
      isShuttingDown: deps.isShuttingDown ?? (() => false),
      stateHealth: stateHealth(deps.state),
      platformHealth: deps.platformHealth,
      policySync: deps.policySync,
      starterPolicies: deps.starterPolicies,
      guardHealth: deps.guard && (() => deps.guard?.health()),
    }),
  );
  if (deps.playground) app.use(playgroundRouter(deps.playground));
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.send(await metrics.registry.metrics());
  });
  const clock = deps.clock ?? (() => new Date());
  const bodyLimit = bodyLimitBytes(deps.bodyLimit ?? DEFAULT_BODY_LIMIT);
  // One budget for every route that reads a body into memory.
  const budget = bodyBudget(deps.bodyBudget ?? budgetFromHeap(getHeapStatistics().heap_size_limit));
  const bodies = { secrets: deps.secretFile ?? fixedSecrets(deps.secrets), bodyLimit, metrics, budget };
  if (deps.state) app.use(eventsRouter({ ...bodies, logger: deps.logger, clock, state: deps.state }));
  const sources: FactSource[] = [
    ...assembleFactSources({ state: deps.state, logger: deps.logger }).preflight,
    ...(deps.factSources ?? []),
  ];
  const preflight = preflightHandler({
    ...bodies,
    store: served,
    logger: deps.logger,
    audit: deps.audit ?? disabledAuditLog,
    clock,
    newId: deps.newId ?? randomUUID,
    gather: deps.gatherFacts ?? factGatherer(sources),
    archive: deps.archive,
    notifier: deps.notifier,
    keep: deps.guard && ((decision, payload, now) => deps.guard?.keep(decision, payload, now)),
    takeExceptionUses: deps.state && ((uses, now) => (deps.state as GuardrailState).store.takeExceptionUses(uses, now)),
  });
  app.use((req, _res, next) =>
    next(
      new HttpError(404, `no route ${req.method} ${req.path}; Steadybit's preflight webhook URL is POST /preflight`),
    ),
  );
  app.use(errorHandler(deps.logger));
  // POST /preflight refuses bad framing itself (with its decision id); every other route here.
  return (req, res) => {
    if (isPreflightRequest(req)) return preflight(req, res);
    const problem = framingProblem(req, bodyLimit);
    if (!problem) return app(req, res);
    if (req.method === 'POST' && req.url?.split('?')[0] === '/events') countRefusedEvent(metrics, problem.status);
    refuseAndClose(res, problem);
  };
}
