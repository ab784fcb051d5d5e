"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CANCEL_FAILURES = void 0;
exports.createGuardMetrics = createGuardMetrics;
const prom_client_1 = require("prom-client");
/** Why a cancel did not happen (preflight_guard_cancel_failures_total{reason}); the Platform API outcomes and the guard's own. */
exports.CANCEL_FAILURES = [
    'unauthorized',
    'rejected',
    'rate_limited',
    'server_error',
    'network_error',
    'timeout',
    'invalid_response',
    'budget_exhausted',
    'no_token',
    'state_unavailable',
];
/** The guard's metrics in the service's registry (docs/metrics.md). */
function createGuardMetrics(registry) {
    const registers = [registry];
    const stops = new prom_client_1.Counter({
        name: 'preflight_guard_stops_total',
        help: 'Runs in progress the guard cancelled (docs/guard.md), by the policy that stopped them.',
        labelNames: ['policy'],
        registers,
    });
    const reports = new prom_client_1.Counter({
        name: 'preflight_guard_reports_total',
        help: 'Findings of guarded policies on runs in progress that stopped nothing: would_stop (warn/audit mode), cannot_judge (onCannotJudge: report), cannot_stop (STEADYBIT_URL is not set) or dead_man (a deadMan signal silent too long, then: report), once per run and policy.',
        labelNames: ['policy', 'kind'],
        registers,
    });
    const failures = new prom_client_1.Counter({
        name: 'preflight_guard_cancel_failures_total',
        help: 'Cancels of runs the guard had to stop that did not happen, by reason (the run is tried again at the next tick).',
        labelNames: ['reason'],
        registers,
    });
    const runs = new prom_client_1.Gauge({
        name: 'preflight_guard_runs',
        help: 'Runs in progress the guard watches (allowed, not yet ended).',
        registers,
    });
    const duration = new prom_client_1.Histogram({
        name: 'preflight_guard_tick_duration_seconds',
        help: 'Time of one guard tick: reading the runs, judging each again, cancelling.',
        buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
        registers,
    });
    const last = new prom_client_1.Gauge({
        name: 'preflight_guard_last_tick_timestamp_seconds',
        help: 'When the last guard tick ended (Unix time).',
        registers,
    });
    for (const reason of exports.CANCEL_FAILURES)
        failures.inc({ reason }, 0);
    return {
        stopped: (policy) => stops.inc({ policy }),
        reported: (policy, kind) => reports.inc({ policy, kind }),
        cancelFailed: (reason) => failures.inc({ reason }),
        guardedRuns: (count) => runs.set(count),
        ticked: (seconds, atMs) => {
            duration.observe(seconds);
            last.set(atMs / 1000);
        },
    };
}
//# sourceMappingURL=guard-metrics.js.map