"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.NOTIFY_OUTCOMES = void 0;
exports.notifyMetrics = notifyMetrics;
const prom_client_1 = require("prom-client");
/** What became of a notification meant for a target (docs/metrics.md). */
exports.NOTIFY_OUTCOMES = ['sent', 'collapsed', 'dropped', 'rejected', 'failed'];
/**
 * preflight_notifications_total{target,outcome}: sent (a 2xx), collapsed (counted into a message
 * already waiting), dropped (the target's queue was full, or the service stopped first),
 * rejected (a 4xx other than 429, not retried), failed (5xx, 429 or no answer, retries used up).
 * Every target's series exist from the start at 0, so rate() and alerts see the first failure.
 */
function notifyMetrics(registry, targets) {
    const counter = new prom_client_1.Counter({
        name: 'preflight_notifications_total',
        help: 'Notifications by target and outcome: sent, collapsed (a duplicate counted into one message), dropped (queue full or shutdown), rejected (4xx), failed (retries used up).',
        labelNames: ['target', 'outcome'],
        registers: [registry],
    });
    for (const target of targets)
        for (const outcome of exports.NOTIFY_OUTCOMES)
            counter.inc({ target, outcome }, 0);
    return (target, outcome, n = 1) => counter.inc({ target, outcome }, n);
}
//# sourceMappingURL=notify-metrics.js.map