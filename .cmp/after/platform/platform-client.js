"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createPlatformClient = createPlatformClient;
const platform_metrics_1 = require("./platform-metrics");
const rate_budget_1 = require("./rate-budget");
const retry_timing_1 = require("../common/retry-timing");
const token_source_1 = require("./token-source");
const MAX_ATTEMPTS = 4;
const defaultSleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** A failed attempt's outcome, and whether trying again may help. */
function classify(status) {
    if (status >= 200 && status < 300)
        return { outcome: 'ok', retry: false };
    if (status === 401 || status === 403)
        return { outcome: 'unauthorized', retry: false };
    if (status === 429)
        return { outcome: 'rate_limited', retry: true };
    if (status >= 500)
        return { outcome: 'server_error', retry: true };
    return { outcome: 'rejected', retry: false };
}
async function describeBody(res) {
    const text = (await res.text().catch(() => '')).slice(0, 300).replace(/\s+/g, ' ').trim();
    return text === '' ? '' : `: ${text}`;
}
/**
 * The Platform API client: Node's fetch (undici, no extra dependency), every call within the
 * client-side budget (rate-budget.ts) and timed out (STEADYBIT_TIMEOUT_MS, and never past the
 * caller's deadline). A 429 pauses every call for its RateLimit-Reset / Retry-After; 5xx and network
 * errors are retried with jittered backoff (retry-timing.ts) while the deadline allows. Expected
 * failures are values (ApiResult), never thrown.
 */
function createPlatformClient(config, deps = {}) {
    const now = deps.now ?? Date.now;
    const sleep = deps.sleep ?? defaultSleep;
    const metrics = deps.metrics ?? platform_metrics_1.noPlatformMetrics;
    const doFetch = deps.fetch ?? fetch;
    const budget = new rate_budget_1.RateBudget(config.rateBurst, config.ratePerMinute, now);
    const token = (0, token_source_1.tokenSource)(config.token, config.authScheme);
    const fail = (endpoint, failure) => {
        if (failure.outcome === 'budget_exhausted' || failure.outcome === 'no_token')
            metrics.call(endpoint, failure.outcome);
        return { ok: false, failure };
    };
    async function attempt(req, authorization) {
        const started = now();
        const timeout = Math.max(1, Math.min(config.timeoutMs, req.deadlineMs - started));
        const seconds = () => (now() - started) / 1000;
        let res;
        try {
            res = await doFetch(`${config.url}${req.path}`, {
                method: req.method,
                headers: {
                    authorization,
                    accept: 'application/json',
                    ...(req.body === undefined ? {} : { 'content-type': 'application/json' }),
                },
                body: req.body === undefined ? undefined : JSON.stringify(req.body),
                signal: AbortSignal.timeout(timeout),
                redirect: 'error',
            });
        }
        catch (err) {
            // Duck-typed: fetch's errors may come from another realm (test sandboxes), where instanceof fails.
            const name = err?.name;
            const timedOut = name === 'TimeoutError' || name === 'AbortError';
            metrics.call(req.endpoint, timedOut ? 'timeout' : 'network_error', seconds());
            const message = timedOut ? `no answer within ${timeout} ms` : `cannot connect (${causeOf(err)})`;
            return {
                result: { ok: false, failure: { outcome: timedOut ? 'timeout' : 'network_error', message } },
                retry: true,
            };
        }
        const { outcome, retry } = classify(res.status);
        if (outcome === 'ok' && req.statusOnly) {
            await res.arrayBuffer().catch(() => undefined);
            metrics.call(req.endpoint, 'ok', seconds());
            return { result: { ok: true, body: undefined, status: res.status }, retry: false };
        }
        if (outcome === 'ok') {
            try {
                const text = await res.text();
                metrics.call(req.endpoint, 'ok', seconds());
                return { result: { ok: true, body: text === '' ? undefined : JSON.parse(text) }, retry: false };
            }
            catch (err) {
                metrics.call(req.endpoint, 'invalid_response', seconds());
                return {
                    result: {
                        ok: false,
                        failure: {
                            outcome: 'invalid_response',
                            status: res.status,
                            message: `the answer is not JSON (${causeOf(err)})`,
                        },
                    },
                    retry: true,
                };
            }
        }
        metrics.call(req.endpoint, outcome, seconds());
        const waitMs = res.status === 429 ? ((0, retry_timing_1.retryAfterMs)(res.headers, now()) ?? retry_timing_1.DEFAULT_RATE_LIMIT_WAIT_MS) : undefined;
        if (waitMs !== undefined)
            budget.pauseUntil(now() + waitMs);
        const hint = outcome === 'unauthorized' ? ` (check the access token and STEADYBIT_AUTH_SCHEME=${config.authScheme})` : '';
        const message = `HTTP ${res.status}${hint}${await describeBody(res)}`;
        return {
            result: { ok: false, failure: { outcome: outcome, status: res.status, message } },
            retry,
            waitMs,
        };
    }
    return {
        url: config.url,
        async call(req) {
            let last;
            for (let n = 1; n <= MAX_ATTEMPTS; n++) {
                const auth = await token.authorization();
                if (!auth.ok)
                    return fail(req.endpoint, { outcome: 'no_token', message: auth.message });
                const wait = budget.reserve(req.deadlineMs - now());
                if (wait === undefined) {
                    if (last)
                        return last;
                    const paused = budget.pausedUntil();
                    const why = paused
                        ? `Steadybit asked to wait until ${new Date(paused).toISOString()} (429)`
                        : `the client-side budget (STEADYBIT_RATE_BURST=${config.rateBurst}, STEADYBIT_RATE_PER_MINUTE=${config.ratePerMinute}) is spent`;
                    return fail(req.endpoint, { outcome: 'budget_exhausted', message: `not sent: ${why}` });
                }
                if (wait > 0)
                    await sleep(wait);
                const { result, retry } = await attempt(req, auth.header);
                if (result.ok || !retry || n === MAX_ATTEMPTS)
                    return result;
                last = result;
                // A 429's wait is in the budget (pauseUntil); 5xx and network errors back off here.
                if (result.failure.outcome !== 'rate_limited') {
                    const backoff = (0, retry_timing_1.backoffMs)(n, deps.random);
                    if (now() + backoff >= req.deadlineMs)
                        return result;
                    await sleep(backoff);
                }
            }
            return last;
        },
    };
}
function causeOf(err) {
    if (typeof err !== 'object' || err === null)
        return String(err);
    const { cause, message } = err;
    if (cause && typeof cause === 'object')
        return String(cause.code ?? cause.message);
    return String(message ?? err);
}
//# sourceMappingURL=platform-client.js.map