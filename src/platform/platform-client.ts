import type { PlatformConfig } from './platform-config';
import { noPlatformMetrics, type CallOutcome, type Endpoint, type PlatformMetrics } from './platform-metrics';
import { RateBudget } from './rate-budget';
import { backoffMs, DEFAULT_RATE_LIMIT_WAIT_MS, retryAfterMs } from '../common/retry-timing';
import { tokenSource, type TokenSource } from './token-source';

/** Why a call gave no answer; the message is for logs, /readyz and denials (never holds the token). */
export interface ApiFailure {
  outcome: Exclude<CallOutcome, 'ok'>;
  message: string;
  status?: number;
}
export type ApiResult = { ok: true; body: unknown; status?: number } | { ok: false; failure: ApiFailure };

export interface ApiCall {
  endpoint: Endpoint;
  method: 'GET' | 'POST' | 'DELETE';
  /** Path and query, e.g. `/api/environments`. */
  path: string;
  body?: unknown;
  /** Epoch ms by which the call must have an answer, retries and waits included. */
  deadlineMs: number;
  /** The status is the answer (cancel: 200 or 202, no content documented): the body is not read as JSON. */
  statusOnly?: boolean;
}

export interface PlatformClient {
  call(request: ApiCall): Promise<ApiResult>;
  /** The platform address, for messages. */
  readonly url: string;
}

export interface ClientDeps {
  metrics?: PlatformMetrics;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Node's fetch (undici) unless a test passes another. */
  fetch?: typeof fetch;
}

const MAX_ATTEMPTS = 4;
const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A failed attempt's outcome, and whether trying again may help. */
function classify(status: number): { outcome: CallOutcome; retry: boolean } {
  if (status >= 200 && status < 300) return { outcome: 'ok', retry: false };
  if (status === 401 || status === 403) return { outcome: 'unauthorized', retry: false };
  if (status === 429) return { outcome: 'rate_limited', retry: true };
  if (status >= 500) return { outcome: 'server_error', retry: true };
  return { outcome: 'rejected', retry: false };
}

async function describeBody(res: Response): Promise<string> {
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
export function createPlatformClient(config: PlatformConfig, deps: ClientDeps = {}): PlatformClient {
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? defaultSleep;
  const metrics = deps.metrics ?? noPlatformMetrics;
  const doFetch = deps.fetch ?? fetch;
  const budget = new RateBudget(config.rateBurst, config.ratePerMinute, now);
  const token: TokenSource = tokenSource(config.token, config.authScheme);

  const fail = (endpoint: Endpoint, failure: ApiFailure): ApiResult => {
    if (failure.outcome === 'budget_exhausted' || failure.outcome === 'no_token')
      metrics.call(endpoint, failure.outcome);
    return { ok: false, failure };
  };

  async function attempt(
    req: ApiCall,
    authorization: string,
  ): Promise<{ result: ApiResult; retry: boolean; waitMs?: number }> {
    const started = now();
    const timeout = Math.max(1, Math.min(config.timeoutMs, req.deadlineMs - started));
    const seconds = () => (now() - started) / 1000;
    let res: Response;
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
    } catch (err) {
      // Duck-typed: fetch's errors may come from another realm (test sandboxes), where instanceof fails.
      const name = (err as { name?: unknown } | null)?.name;
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
      } catch (err) {
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
    const waitMs = res.status === 429 ? (retryAfterMs(res.headers, now()) ?? DEFAULT_RATE_LIMIT_WAIT_MS) : undefined;
    if (waitMs !== undefined) budget.pauseUntil(now() + waitMs);
    const hint =
      outcome === 'unauthorized' ? ` (check the access token and STEADYBIT_AUTH_SCHEME=${config.authScheme})` : '';
    const message = `HTTP ${res.status}${hint}${await describeBody(res)}`;
    return {
      result: { ok: false, failure: { outcome: outcome as ApiFailure['outcome'], status: res.status, message } },
      retry,
      waitMs,
    };
  }

  return {
    url: config.url,
    async call(req) {
      let last: ApiResult | undefined;
      for (let n = 1; n <= MAX_ATTEMPTS; n++) {
        const auth = await token.authorization();
        if (!auth.ok) return fail(req.endpoint, { outcome: 'no_token', message: auth.message });
        const wait = budget.reserve(req.deadlineMs - now());
        if (wait === undefined) {
          if (last) return last;
          const paused = budget.pausedUntil();
          const why = paused
            ? `Steadybit asked to wait until ${new Date(paused).toISOString()} (429)`
            : `the client-side budget (STEADYBIT_RATE_BURST=${config.rateBurst}, STEADYBIT_RATE_PER_MINUTE=${config.ratePerMinute}) is spent`;
          return fail(req.endpoint, { outcome: 'budget_exhausted', message: `not sent: ${why}` });
        }
        if (wait > 0) await sleep(wait);
        const { result, retry } = await attempt(req, auth.header);
        if (result.ok || !retry || n === MAX_ATTEMPTS) return result;
        last = result;
        // A 429's wait is in the budget (pauseUntil); 5xx and network errors back off here.
        if (result.failure.outcome !== 'rate_limited') {
          const backoff = backoffMs(n, deps.random);
          if (now() + backoff >= req.deadlineMs) return result;
          await sleep(backoff);
        }
      }
      return last as ApiResult;
    },
  };
}

function causeOf(err: unknown): string {
  if (typeof err !== 'object' || err === null) return String(err);
  const { cause, message } = err as { cause?: { code?: unknown; message?: unknown }; message?: unknown };
  if (cause && typeof cause === 'object') return String(cause.code ?? cause.message);
  return String(message ?? err);
}
