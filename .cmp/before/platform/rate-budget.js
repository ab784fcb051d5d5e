"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RateBudget = void 0;
/**
 * This service's client-side budget for Platform API calls: a token bucket (a burst of `burst`
 * calls, then `perMinute` a minute), plus a pause every caller honours after a 429. Steadybit's own
 * limit (a burst of 100, then 25 every 15 s) is shared by every tool of the tenant, so the default
 * budget is a small share of it (docs/platform-api.md). Hand-written rather than a library: it
 * needs an injected clock and "reserve only if the wait fits the caller's deadline", which the
 * usual limiters (bottleneck, limiter) do not offer; the whole algorithm is the few lines below.
 */
class RateBudget {
    burst;
    now;
    tokens;
    updatedMs;
    pausedUntilMs = 0;
    perMs;
    constructor(burst, perMinute, now = Date.now) {
        this.burst = burst;
        this.now = now;
        this.tokens = burst;
        this.updatedMs = now();
        this.perMs = perMinute / 60_000;
    }
    /**
     * Reserves one call: the wait in ms before it may be made (0: now), or undefined when that wait
     * would exceed `maxWaitMs` (then nothing is reserved). Reservations queue: each takes the next token.
     */
    reserve(maxWaitMs) {
        const nowMs = this.now();
        this.tokens = Math.min(this.burst, this.tokens + (nowMs - this.updatedMs) * this.perMs);
        this.updatedMs = nowMs;
        const forToken = this.tokens >= 1 ? 0 : (1 - this.tokens) / this.perMs;
        const wait = Math.max(forToken, this.pausedUntilMs - nowMs, 0);
        if (wait > maxWaitMs)
            return undefined;
        this.tokens -= 1;
        return Math.ceil(wait);
    }
    /** After a 429: no call before this time (Steadybit's RateLimit-Reset / Retry-After). */
    pauseUntil(ms) {
        this.pausedUntilMs = Math.max(this.pausedUntilMs, ms);
    }
    /** When calls may resume after a 429, if that is still ahead (for /readyz and logs). */
    pausedUntil() {
        return this.pausedUntilMs > this.now() ? this.pausedUntilMs : undefined;
    }
}
exports.RateBudget = RateBudget;
//# sourceMappingURL=rate-budget.js.map