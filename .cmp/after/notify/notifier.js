"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.silentNotifier = void 0;
exports.createNotifier = createNotifier;
const node_crypto_1 = require("node:crypto");
const decision_notifications_1 = require("./decision-notifications");
const notify_metrics_1 = require("./notify-metrics");
const target_queue_1 = require("./target-queue");
const timers_1 = require("./timers");
/** Decisions waiting for the next turn of the event loop; beyond this many in one turn they are not looked at. */
const MAX_PENDING = 10_000;
/** Does nothing: no target is configured. */
exports.silentNotifier = {
    decided: () => undefined,
    notify: () => undefined,
    close: async () => undefined,
};
/**
 * The notifier of docs/notifications.md: one bounded queue per target. A decision is turned into
 * notifications on the next turn of the event loop, after the answers of this turn went out, so
 * notifying never delays or changes a decision; an error while doing it is logged, never thrown.
 */
function createNotifier(config, deps) {
    if (config.targets.length === 0)
        return exports.silentNotifier;
    const count = (0, notify_metrics_1.notifyMetrics)(deps.registry, config.targets.map((t) => t.name));
    const timers = deps.timers ?? timers_1.realTimers;
    const now = deps.now ?? Date.now;
    const newId = deps.newId ?? (() => `msg_${(0, node_crypto_1.randomUUID)()}`);
    const queues = config.targets.map((target) => (0, target_queue_1.targetQueue)(target, {
        fetch: deps.fetch ?? fetch,
        timers,
        now,
        random: deps.random,
        newId,
        count,
        logger: deps.logger,
        timeoutMs: config.timeoutMs,
        maxAttempts: config.maxAttempts,
        dedupeWindowMs: config.dedupeWindowMs,
        queueSize: config.queueSize,
    }));
    const options = { redaction: deps.redaction, runUrl: config.runUrl, exceptionHelp: config.exceptionHelp };
    let pending = [];
    let closed = false;
    const notify = (n) => {
        for (const queue of queues)
            queue.offer(n);
    };
    const turn = () => {
        const runs = pending;
        pending = [];
        for (const run of runs) {
            try {
                for (const n of (0, decision_notifications_1.decisionNotifications)(run, options))
                    notify(n);
            }
            catch (err) {
                deps.logger.error('notifications of a decision could not be built', {
                    decisionId: run.decision.id,
                    error: err instanceof Error ? err.message : String(err),
                });
            }
        }
    };
    return {
        decided(run) {
            if (closed || pending.length >= MAX_PENDING)
                return;
            if (pending.push(run) === 1)
                setImmediate(turn);
        },
        notify(n) {
            if (!closed)
                notify(n);
        },
        async close(deadlineMs) {
            closed = true;
            turn();
            let timedOut = false;
            const flushed = Promise.all(queues.map((q) => q.flush()));
            await Promise.race([
                flushed,
                (0, timers_1.sleep)(timers, deadlineMs).then(() => {
                    timedOut = true;
                }),
            ]);
            if (timedOut)
                for (const q of queues)
                    q.abandon();
        },
    };
}
//# sourceMappingURL=notifier.js.map