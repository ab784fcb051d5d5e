"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.createApp = createApp;
const playground_routes_1 = require("../http/playground-routes");
const express_1 = __importDefault(require("express"));
const node_crypto_1 = require("node:crypto");
const node_v8_1 = require("node:v8");
const bytes_1 = __importDefault(require("bytes"));
const events_recorder_1 = require("../http/events-recorder");
const audit_log_1 = require("../observability/audit-log");
const observe_answers_1 = require("../observability/observe-answers");
const error_handler_1 = require("../http/error-handler");
const health_routes_1 = require("./health-routes");
const http_error_1 = require("../http/http-error");
const body_budget_1 = require("../http/body-budget");
const request_framing_1 = require("../http/request-framing");
const refuse_and_close_1 = require("../http/refuse-and-close");
const preflight_route_1 = require("../http/preflight-route");
const events_route_1 = require("../http/events-route");
const served_policies_1 = require("../policy/runtime/served-policies");
const fact_gatherer_1 = require("../policy/engine/fact-gatherer");
const request_timer_1 = require("../observability/request-timer");
const config_1 = require("./config");
const webhook_secrets_1 = require("../signature/webhook-secrets");
const service_fact_sources_1 = require("./service-fact-sources");
const publish_answer_1 = require("../answer/publish-answer");
const KNOWN_ROUTES = new Set(['/preflight', '/events', '/healthz', '/readyz', '/metrics']);
function bodyLimitBytes(limit) {
    const parsed = typeof limit === 'number' ? limit : bytes_1.default.parse(limit);
    if (parsed === null || !Number.isFinite(parsed))
        throw new RangeError(`body limit ${String(limit)} is not a size`);
    return parsed;
}
const secretsOf = (secrets) => 'current' in secrets ? secrets : (0, webhook_secrets_1.fixedSecrets)(secrets);
/**
 * POST /preflight on its own node:http handler (the hot path), every other route on Express.
 * No listen() here: start-server.ts does that, tests use supertest.
 */
function createApp(deps) {
    const app = (0, express_1.default)();
    app.disable('x-powered-by');
    app.set('etag', false);
    const { metrics, logger } = deps;
    const capabilities = deps.capabilities ?? [];
    const options = deps.options ?? {};
    for (const c of capabilities)
        c.observe?.(metrics);
    app.use((req, res, next) => {
        // A label from a fixed set: arbitrary paths must not grow the metric's series.
        (0, request_timer_1.timeRequest)(metrics, KNOWN_ROUTES.has(req.path) ? req.path : 'other', res);
        next();
    });
    const clock = options.clock ?? (() => new Date());
    const bodyLimit = bodyLimitBytes(options.bodyLimit ?? config_1.DEFAULT_BODY_LIMIT);
    // One budget for every route that reads a body into memory.
    const budget = (0, body_budget_1.bodyBudget)(options.bodyBudget ?? (0, body_budget_1.budgetFromHeap)((0, node_v8_1.getHeapStatistics)().heap_size_limit));
    const bodies = { secrets: secretsOf(deps.secrets), bodyLimit, metrics, budget };
    const routes = {
        logger,
        eventsRoute: (state) => (0, events_route_1.eventsRouter)({ ...bodies, logger, clock, state, publish }),
        playgroundRoute: playground_routes_1.playgroundRouter,
    };
    // After each answer, one record, to audit and metrics first, then in the capabilities' order.
    const audit = (0, observe_answers_1.observeAnswers)({ metrics, audit: options.audit ?? audit_log_1.disabledAuditLog, logger });
    const publish = (0, publish_answer_1.publishAnswer)([audit, ...capabilities.flatMap((c) => c.onAnswer ?? [])], logger);
    // The policy set every decision is made on: the loaded one with the built-in policies (the same
    // for `eval` and `test`); /readyz counts the same policies a decision's message does.
    const served = deps.served ??
        (0, served_policies_1.servedPolicies)(deps.store, capabilities.flatMap((c) => c.policies ?? []));
    app.use((0, health_routes_1.healthRouter)({
        store: deps.store,
        served,
        signaturesEnforced: 'current' in deps.secrets || deps.secrets.length > 0,
        isShuttingDown: options.isShuttingDown ?? (() => false),
        policySync: options.policySync,
        starterPolicies: options.starterPolicies,
        capabilities,
    }));
    app.get('/metrics', async (_req, res) => {
        res.setHeader('Content-Type', metrics.registry.contentType);
        res.send(await metrics.registry.metrics());
    });
    for (const c of capabilities)
        if (c.routes)
            app.use(c.routes(routes));
    const preflight = (0, preflight_route_1.preflightHandler)({
        ...bodies,
        store: served,
        logger,
        clock,
        newId: options.newId ?? node_crypto_1.randomUUID,
        gather: options.gatherFacts ?? (0, fact_gatherer_1.factGatherer)((0, service_fact_sources_1.serviceFactSources)(capabilities).preflight),
        publish,
        takeExceptionUses: capabilities.find((c) => c.takeExceptionUses)?.takeExceptionUses,
        settleOverlap: capabilities.find((c) => c.settleOverlap)?.settleOverlap,
    });
    app.use((req, _res, next) => next(new http_error_1.HttpError(404, `no route ${req.method} ${req.path}; Steadybit's preflight webhook URL is POST /preflight`)));
    app.use((0, error_handler_1.errorHandler)(logger));
    // POST /preflight refuses bad framing itself (with its decision id); every other route here.
    return (req, res) => {
        if ((0, preflight_route_1.isPreflightRequest)(req))
            return preflight(req, res);
        const problem = (0, request_framing_1.framingProblem)(req, bodyLimit);
        if (!problem)
            return app(req, res);
        if (req.method === 'POST' && req.url?.split('?')[0] === '/events')
            publish((0, events_recorder_1.refusedEvent)(problem.status, clock()));
        (0, refuse_and_close_1.refuseAndClose)(res, problem);
    };
}
//# sourceMappingURL=create-app.js.map