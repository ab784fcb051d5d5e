"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_RETRY_WAIT_MS = void 0;
exports.sendDelivery = sendDelivery;
const retry_timing_1 = require("../common/retry-timing");
const target_request_1 = require("./target-request");
const timers_1 = require("./timers");
/** The longest wait a Retry-After may ask for; longer, and the message fails now instead. */
exports.MAX_RETRY_WAIT_MS = 300_000;
async function attempt(target, delivery, deps) {
    const request = (0, target_request_1.targetRequest)(target, delivery, new Date(deps.now()));
    const controller = new AbortController();
    const timer = deps.timers.setTimeout(() => controller.abort(), deps.timeoutMs);
    const stop = () => controller.abort();
    deps.signal?.addEventListener('abort', stop);
    if (deps.signal?.aborted)
        controller.abort();
    try {
        const res = await deps.fetch(request.url, {
            method: 'POST',
            headers: request.headers,
            body: request.body,
            signal: controller.signal,
            redirect: 'error',
        });
        // The body is read (and dropped) so the connection can be reused; bounded by the same timeout.
        await res.arrayBuffer().catch(() => undefined);
        if (res.ok)
            return { kind: 'ok', status: res.status };
        if (res.status === 429)
            return { kind: 'retry', status: 429, waitMs: (0, retry_timing_1.retryAfterMs)(res.headers, deps.now()), reason: 'HTTP 429' };
        if (res.status >= 500)
            return {
                kind: 'retry',
                status: res.status,
                waitMs: res.status === 503 ? (0, retry_timing_1.retryAfterMs)(res.headers, deps.now()) : undefined,
                reason: `HTTP ${res.status}`,
            };
        return { kind: 'rejected', status: res.status };
    }
    catch (err) {
        const reason = deps.signal?.aborted
            ? 'the service stopped'
            : controller.signal.aborted
                ? `no answer within ${deps.timeoutMs} ms`
                : err instanceof Error
                    ? err.cause instanceof Error
                        ? err.cause.message
                        : err.message
                    : String(err);
        return { kind: 'retry', reason };
    }
    finally {
        deps.signal?.removeEventListener('abort', stop);
        deps.timers.clearTimeout(timer);
    }
}
/**
 * Delivers one message: retried after a 5xx, a 429 or a network error (a timeout included) with
 * exponential backoff and full jitter, or after the wait a 429/503's Retry-After names; never
 * retried after another 4xx (the receiver refused this message: sending it again changes nothing).
 */
async function sendDelivery(target, delivery, deps) {
    for (let n = 1;; n++) {
        const result = await attempt(target, delivery, deps);
        if (result.kind === 'ok')
            return { outcome: 'sent', attempts: n, status: result.status };
        if (result.kind === 'rejected')
            return {
                outcome: 'rejected',
                attempts: n,
                status: result.status,
                reason: `HTTP ${result.status}: the receiver refused the message (not retried)`,
            };
        const wait = result.waitMs ?? (0, retry_timing_1.backoffMs)(n, deps.random);
        if (n >= deps.maxAttempts || wait > exports.MAX_RETRY_WAIT_MS || deps.giveUp?.()) {
            return {
                outcome: 'failed',
                attempts: n,
                status: result.status,
                reason: `${result.reason} (after ${n} attempt${n === 1 ? '' : 's'})`,
            };
        }
        await (0, timers_1.sleep)(deps.timers, wait);
    }
}
//# sourceMappingURL=send-delivery.js.map