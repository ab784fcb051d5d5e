"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.targetQueue = targetQueue;
const rate_budget_1 = require("../platform/rate-budget");
const dedupe_key_1 = require("./dedupe-key");
const send_delivery_1 = require("./send-delivery");
const target_filter_1 = require("./target-filter");
const timers_1 = require("./timers");
/**
 * One target's bounded queue. A notification opens a message that waits NOTIFY_DEDUPE_WINDOW for
 * identical ones (each counted into it, `collapsed`); then it waits its turn. One message at a time
 * is sent, at the target's rate limit, with retries (send-delivery.ts). At most `queueSize`
 * messages are held; beyond that a new one is dropped and counted, so a target that hangs or fails
 * costs a bounded amount of memory and never touches a preflight.
 */
function targetQueue(target, deps) {
    const collapsing = new Map();
    const ready = [];
    const budget = new rate_budget_1.RateBudget(target.rate.burst, target.rate.perMinute, deps.now);
    let sending;
    let closing = false;
    const stop = new AbortController();
    let lastLog = -Infinity;
    const logFailure = (message, meta) => {
        const now = deps.now();
        if (now - lastLog < (deps.logEveryMs ?? 60_000))
            return;
        lastLog = now;
        deps.logger.warn(message, { target: target.name, type: target.type, ...meta });
    };
    const sendOne = async (delivery) => {
        const wait = budget.reserve(Number.MAX_SAFE_INTEGER) ?? 0;
        if (wait > 0 && !closing)
            await (0, timers_1.sleep)(deps.timers, wait);
        const result = await (0, send_delivery_1.sendDelivery)(target, delivery, { ...deps, giveUp: () => closing, signal: stop.signal });
        deps.count(target.name, result.outcome);
        if (result.outcome !== 'sent')
            logFailure(`notification not delivered (${result.outcome})`, {
                kind: delivery.notification.kind,
                reason: result.reason,
                attempts: result.attempts,
            });
    };
    const drain = async () => {
        for (let next = ready.shift(); next; next = ready.shift()) {
            try {
                await sendOne(next);
            }
            catch (err) {
                // A bug in shaping a message must not stop the queue (and is counted as a failure).
                deps.count(target.name, 'failed');
                logFailure('notification could not be built', { error: err instanceof Error ? err.message : String(err) });
            }
        }
        sending = undefined;
    };
    const release = (key) => {
        const waiting = collapsing.get(key);
        if (!waiting)
            return;
        collapsing.delete(key);
        ready.push(waiting.delivery);
        sending ??= drain();
    };
    return {
        name: target.name,
        size: () => collapsing.size + ready.length,
        offer(n) {
            if (!(0, target_filter_1.matchesFilter)(target.filter, n))
                return;
            const key = (0, dedupe_key_1.dedupeKey)(n);
            const same = collapsing.get(key);
            if (same) {
                same.delivery.count += 1;
                same.delivery.lastTime = n.time;
                deps.count(target.name, 'collapsed');
                return;
            }
            if (closing || collapsing.size + ready.length >= deps.queueSize) {
                deps.count(target.name, 'dropped');
                logFailure("notification dropped: the target's queue is full (NOTIFY_QUEUE_SIZE); it is slow, failing or rate-limited", { queueSize: deps.queueSize });
                return;
            }
            const delivery = { id: deps.newId(), notification: n, count: 1, firstTime: n.time, lastTime: n.time };
            collapsing.set(key, { delivery, timer: deps.timers.setTimeout(() => release(key), deps.dedupeWindowMs) });
        },
        async flush() {
            closing = true;
            for (const [key, waiting] of collapsing) {
                deps.timers.clearTimeout(waiting.timer);
                release(key);
            }
            while (sending)
                await sending;
        },
        abandon() {
            closing = true;
            stop.abort();
            for (const waiting of collapsing.values())
                deps.timers.clearTimeout(waiting.timer);
            const held = collapsing.size + ready.length;
            collapsing.clear();
            ready.length = 0;
            if (held > 0)
                deps.count(target.name, 'dropped', held);
        },
    };
}
//# sourceMappingURL=target-queue.js.map