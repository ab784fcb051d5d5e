"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_RATE_LIMIT_WAIT_MS = void 0;
exports.retryAfterMs = retryAfterMs;
exports.backoffMs = backoffMs;
/** How long a 429 asks to wait: `RateLimit-Reset` (seconds), else `Retry-After` (seconds or an HTTP date); undefined when neither says. */
function retryAfterMs(headers, nowMs) {
    const reset = seconds(headers.get('ratelimit-reset'));
    if (reset !== undefined)
        return reset * 1000;
    const raw = headers.get('retry-after');
    const after = seconds(raw);
    if (after !== undefined)
        return after * 1000;
    const date = raw === null ? NaN : Date.parse(raw);
    return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
function seconds(raw) {
    if (raw === null || !/^\s*\d+(\.\d+)?\s*$/.test(raw))
        return undefined;
    return Number(raw);
}
/** A 429 that names no wait: Steadybit's bucket refills 25 calls every 15 s, so wait one refill. */
exports.DEFAULT_RATE_LIMIT_WAIT_MS = 15_000;
/**
 * The wait before retry number `attempt` (1, 2, ...) after a 5xx or a network error: exponential
 * backoff with full jitter (a random wait up to 500 ms, 1 s, 2 s, ... capped at 10 s), so replicas
 * that failed together do not retry together.
 */
function backoffMs(attempt, random = Math.random) {
    const ceiling = Math.min(10_000, 500 * 2 ** (attempt - 1));
    return Math.floor(random() * ceiling);
}
//# sourceMappingURL=retry-timing.js.map