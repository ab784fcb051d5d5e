"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.noPlatformMetrics = exports.SYNCS = exports.CALL_OUTCOMES = exports.ENDPOINTS = void 0;
exports.createPlatformMetrics = createPlatformMetrics;
const prom_client_1 = require("prom-client");
/** The Platform API endpoints the service calls, as metric labels. */
exports.ENDPOINTS = [
    'environments',
    'killswitch',
    'executions',
    'preflight_webhooks',
    'property_definitions',
    'cancel',
    'team_members',
];
/** How one call ended (docs/metrics.md). `budget_exhausted` and `no_token`: no request was sent. */
exports.CALL_OUTCOMES = [
    'ok',
    'unauthorized',
    'rejected',
    'rate_limited',
    'server_error',
    'network_error',
    'timeout',
    'invalid_response',
    'budget_exhausted',
    'no_token',
];
/** What the service keeps from the platform, each synced on its own. */
exports.SYNCS = ['environments', 'killswitch', 'executions'];
exports.noPlatformMetrics = { call: () => undefined, synced: () => undefined };
/** The Platform API metrics in the service's registry; cache ages are read at every scrape. */
function createPlatformMetrics(registry, now = Date.now) {
    const registers = [registry];
    const calls = new prom_client_1.Counter({
        name: 'preflight_platform_api_calls_total',
        help: 'Steadybit Platform API calls by endpoint and outcome (budget_exhausted and no_token: not sent).',
        labelNames: ['endpoint', 'outcome'],
        registers,
    });
    const latency = new prom_client_1.Histogram({
        name: 'preflight_platform_api_call_duration_seconds',
        help: 'Time of one Steadybit Platform API call, by endpoint.',
        labelNames: ['endpoint'],
        buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
        registers,
    });
    const last = new Map();
    const lastSuccess = new prom_client_1.Gauge({
        name: 'preflight_platform_last_sync_timestamp_seconds',
        help: 'When each sync from the Platform API last succeeded (Unix time); absent until it has.',
        labelNames: ['sync'],
        registers,
    });
    new prom_client_1.Gauge({
        name: 'preflight_platform_cache_age_seconds',
        help: 'Age of what the service holds from the Platform API, by sync; absent until the first success.',
        labelNames: ['sync'],
        registers,
        collect() {
            this.reset();
            for (const [sync, at] of last)
                this.set({ sync }, Math.max(0, (now() - at) / 1000));
        },
    });
    for (const endpoint of exports.ENDPOINTS)
        for (const outcome of ['ok', 'rate_limited', 'server_error', 'network_error', 'timeout'])
            calls.inc({ endpoint, outcome }, 0);
    return {
        call(endpoint, outcome, seconds) {
            calls.inc({ endpoint, outcome });
            if (seconds !== undefined)
                latency.observe({ endpoint }, seconds);
        },
        synced(sync, atMs) {
            last.set(sync, atMs);
            lastSuccess.set({ sync }, atMs / 1000);
        },
    };
}
//# sourceMappingURL=platform-metrics.js.map