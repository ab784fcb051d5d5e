import { playgroundRouter } from '../http/playground-routes';
import express from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { getHeapStatistics } from 'node:v8';
import bytes from 'bytes';
import type { Logger } from '../common/logger';
import type { Metrics } from '../observability/metrics';
import { refusedEvent } from '../http/events-recorder';
import { disabledAuditLog, type AuditLog } from '../observability/audit-log';
import { observeAnswers } from '../observability/observe-answers';
import type { PolicyStore } from '../policy/runtime/policy-store';
import { errorHandler } from '../http/error-handler';
import { healthRouter, type HealthDeps } from './health-routes';
import { HttpError } from '../http/http-error';
import { bodyBudget, budgetFromHeap } from '../http/body-budget';
import { framingProblem } from '../http/request-framing';
import { refuseAndClose } from '../http/refuse-and-close';
import { isPreflightRequest, preflightHandler, type PreflightDeps } from '../http/preflight-route';
import { eventsRouter } from '../http/events-route';
import { servedPolicies } from '../policy/runtime/served-policies';
import { factGatherer } from '../policy/engine/fact-gatherer';
import { timeRequest } from '../observability/request-timer';
import { DEFAULT_BODY_LIMIT } from './config';
import { fixedSecrets, type WebhookSecrets } from '../signature/webhook-secrets';
import type { Capability, RouteContext } from './capability';
import { serviceFactSources } from './service-fact-sources';
import { publishAnswer } from '../answer/publish-answer';

/** Everything createApp has a default for. */
export interface AppOptions {
  /** One line per answer to POST /preflight; nothing is written when absent. */
  audit?: AuditLog;
  bodyLimit?: string | number;
  /** BODY_BUDGET in bytes: request bodies read or decided at once (default: an eighth of V8's heap limit). */
  bodyBudget?: number;
  clock?: () => Date;
  newId?: () => string;
  isShuttingDown?: () => boolean;
  /** Whether the policy files on disk are the set served (policy-reloader.ts), shown on /readyz. */
  policySync?: HealthDeps['policySync'];
  /** POLICY_DIR is the bundled starter set (/readyz says so). */
  starterPolicies?: boolean;
  /** Replaces gathering facts from the capabilities' sources (tests: a source that fails). */
  gatherFacts?: PreflightDeps['gather'];
}

export interface AppDeps {
  store: PolicyStore;
  /** WEBHOOK_SECRET's values, or WEBHOOK_SECRET_FILE re-read while running. */
  secrets: readonly string[] | WebhookSecrets;
  logger: Logger;
  metrics: Metrics;
  /** What the service has (state, the Platform API, signals, ...), as the root declares it (service-capabilities.ts); none: a bare gate. */
  capabilities?: readonly Capability[];
  /**
   * The policy set decisions are made on, when the caller shares it with the guard (build-service.ts:
   * the set with the built-in policies, assembled once per load); default: the store's set with the
   * capabilities' built-in policies.
   */
  served?: Pick<PolicyStore, 'current'>;
  options?: AppOptions;
}

const KNOWN_ROUTES = new Set(['/preflight', '/events', '/healthz', '/readyz', '/metrics']);

function bodyLimitBytes(limit: string | number): number {
  const parsed = typeof limit === 'number' ? limit : bytes.parse(limit);
  if (parsed === null || !Number.isFinite(parsed)) throw new RangeError(`body limit ${String(limit)} is not a size`);
  return parsed;
}

const secretsOf = (secrets: AppDeps['secrets']): WebhookSecrets =>
  'current' in secrets ? secrets : fixedSecrets(secrets);

/** Answers every request of the service; give it to http.createServer (start-server.ts) or supertest. */
export type App = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * POST /preflight on its own node:http handler (the hot path), every other route on Express.
 * No listen() here: start-server.ts does that, tests use supertest.
 */
export function createApp(deps: AppDeps): App {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const { metrics, logger } = deps;
  const capabilities = deps.capabilities ?? [];
  const options = deps.options ?? {};
  for (const c of capabilities) c.observe?.(metrics);

  app.use((req, res, next) => {
    // A label from a fixed set: arbitrary paths must not grow the metric's series.
    timeRequest(metrics, KNOWN_ROUTES.has(req.path) ? req.path : 'other', res);
    next();
  });

  const clock = options.clock ?? (() => new Date());
  const bodyLimit = bodyLimitBytes(options.bodyLimit ?? DEFAULT_BODY_LIMIT);
  // One budget for every route that reads a body into memory.
  const budget = bodyBudget(options.bodyBudget ?? budgetFromHeap(getHeapStatistics().heap_size_limit));
  const bodies = { secrets: secretsOf(deps.secrets), bodyLimit, metrics, budget };
  const routes: RouteContext = {
    logger,
    eventsRoute: (state) => eventsRouter({ ...bodies, logger, clock, state, publish }),
    playgroundRoute: playgroundRouter,
  };
  // After each answer, one record, to audit and metrics first, then in the capabilities' order.
  const audit = observeAnswers({ metrics, audit: options.audit ?? disabledAuditLog, logger });
  const publish = publishAnswer([audit, ...capabilities.flatMap((c) => c.onAnswer ?? [])], logger);

  // The policy set every decision is made on: the loaded one with the built-in policies (the same
  // for `eval` and `test`); /readyz counts the same policies a decision's message does.
  const served =
    deps.served ??
    servedPolicies(
      deps.store,
      capabilities.flatMap((c) => c.policies ?? []),
    );
  app.use(
    healthRouter({
      store: deps.store,
      served,
      signaturesEnforced: 'current' in deps.secrets || deps.secrets.length > 0,
      isShuttingDown: options.isShuttingDown ?? (() => false),
      policySync: options.policySync,
      starterPolicies: options.starterPolicies,
      capabilities,
    }),
  );
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.send(await metrics.registry.metrics());
  });
  for (const c of capabilities) if (c.routes) app.use(c.routes(routes));
  const preflight = preflightHandler({
    ...bodies,
    store: served,
    logger,
    clock,
    newId: options.newId ?? randomUUID,
    gather: options.gatherFacts ?? factGatherer(serviceFactSources(capabilities).preflight),
    publish,
    takeExceptionUses: capabilities.find((c) => c.takeExceptionUses)?.takeExceptionUses,
    settleOverlap: capabilities.find((c) => c.settleOverlap)?.settleOverlap,
  });
  app.use((req, _res, next) =>
    next(
      new HttpError(404, `no route ${req.method} ${req.path}; Steadybit's preflight webhook URL is POST /preflight`),
    ),
  );
  app.use(errorHandler(logger));
  // POST /preflight refuses bad framing itself (with its decision id); every other route here.
  return (req, res) => {
    if (isPreflightRequest(req)) return preflight(req, res);
    const problem = framingProblem(req, bodyLimit);
    if (!problem) return app(req, res);
    if (req.method === 'POST' && req.url?.split('?')[0] === '/events') publish(refusedEvent(problem.status, clock()));
    refuseAndClose(res, problem);
  };
}
