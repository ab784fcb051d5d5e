import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** The Platform API endpoints the service calls, as metric labels. */
export const ENDPOINTS = [
  'environments',
  'killswitch',
  'executions',
  'preflight_webhooks',
  'property_definitions',
  'cancel',
  'team_members',
] as const;
/** `custom_webhooks`, `experiments`: called by `preflight-gate connect` only, never by the service. */
export type Endpoint = (typeof ENDPOINTS)[number] | 'custom_webhooks' | 'experiments';

/** How one call ended (docs/metrics.md). `budget_exhausted` and `no_token`: no request was sent. */
export const CALL_OUTCOMES = [
  'ok',
  'unauthorized',
  'rejected',
  'rate_limited',
  'server_error',
  'network_error',
  'timeout',
  'invalid_response',
  'budget_exhausted',
  'no_token',
] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/** What the service keeps from the platform, each synced on its own. */
export const SYNCS = ['environments', 'killswitch', 'executions'] as const;
export type SyncName = (typeof SYNCS)[number];

export interface PlatformMetrics {
  call(endpoint: Endpoint, outcome: CallOutcome, seconds?: number): void;
  synced(sync: SyncName, atMs: number): void;
}

export const noPlatformMetrics: PlatformMetrics = { call: () => undefined, synced: () => undefined };

/** The Platform API metrics in the service's registry; cache ages are read at every scrape. */
export function createPlatformMetrics(registry: Registry, now: () => number = Date.now): PlatformMetrics {
  const registers = [registry];
  const calls = new Counter({
    name: 'preflight_platform_api_calls_total',
    help: 'Steadybit Platform API calls by endpoint and outcome (budget_exhausted and no_token: not sent).',
    labelNames: ['endpoint', 'outcome'],
    registers,
  });
  const latency = new Histogram({
    name: 'preflight_platform_api_call_duration_seconds',
    help: 'Time of one Steadybit Platform API call, by endpoint.',
    labelNames: ['endpoint'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const last = new Map<SyncName, number>();
  const lastSuccess = new Gauge({
    name: 'preflight_platform_last_sync_timestamp_seconds',
    help: 'When each sync from the Platform API last succeeded (Unix time); absent until it has.',
    labelNames: ['sync'],
    registers,
  });
  new Gauge({
    name: 'preflight_platform_cache_age_seconds',
    help: 'Age of what the service holds from the Platform API, by sync; absent until the first success.',
    labelNames: ['sync'],
    registers,
    collect() {
      this.reset();
      for (const [sync, at] of last) this.set({ sync }, Math.max(0, (now() - at) / 1000));
    },
  });
  for (const endpoint of ENDPOINTS)
    for (const outcome of ['ok', 'rate_limited', 'server_error', 'network_error', 'timeout'] as const)
      calls.inc({ endpoint, outcome }, 0);
  return {
    call(endpoint, outcome, seconds) {
      calls.inc({ endpoint, outcome });
      if (seconds !== undefined) latency.observe({ endpoint }, seconds);
    },
    synced(sync, atMs) {
      last.set(sync, atMs);
      lastSuccess.set({ sync }, atMs / 1000);
    },
  };
}
