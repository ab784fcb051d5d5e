"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createSignalMetrics = createSignalMetrics;
const prom_client_1 = require("prom-client");
const OUTCOMES = ['ok', 'error', 'timeout'];
/** The signal metrics in the service's own registry (docs/metrics.md); configured sources start at 0. */
function createSignalMetrics(registry, config) {
    const registers = [registry];
    const queries = new prom_client_1.Counter({
        name: 'preflight_signal_queries_total',
        help: 'Queries sent to Alertmanager and Prometheus sources for signal rules, by source and outcome (ok, error, timeout).',
        labelNames: ['kind', 'source', 'outcome'],
        registers,
    });
    const duration = new prom_client_1.Histogram({
        name: 'preflight_signal_query_duration_seconds',
        help: 'Time a signal query took, by source.',
        labelNames: ['kind', 'source'],
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
        registers,
    });
    const hits = new prom_client_1.Counter({
        name: 'preflight_signal_cache_hits_total',
        help: "Signal answers served from the short cache (SIGNAL_CACHE_TTL_MS) or shared with a query under way (the guard's: by the runs of one tick), by source.",
        labelNames: ['kind', 'source'],
        registers,
    });
    for (const s of config?.sources ?? []) {
        for (const outcome of OUTCOMES)
            queries.inc({ kind: s.kind, source: s.name, outcome }, 0);
        hits.inc({ kind: s.kind, source: s.name }, 0);
    }
    return {
        query(kind, source, outcome, seconds) {
            queries.inc({ kind, source, outcome });
            duration.observe({ kind, source }, seconds);
        },
        cacheHit: (kind, source) => hits.inc({ kind, source }),
    };
}
//# sourceMappingURL=signal-metrics.js.map