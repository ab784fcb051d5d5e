import type { WebhookPayload } from '../../src/payload/types';
import { createSignalGatherer } from '../../src/signals/signal-gatherer';
import { signalFactSource } from '../../src/signals/signal-fact-source';
import type { RedisStateStore } from '../../src/state/redis-state-store';
import { waitFor } from '../helpers/server-process';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';
import type { PrometheusServer } from '../observability/prometheus-server';
import { startErrorsPrometheus } from '../signals/errors-prometheus';
import { attackedEvent, attackedRun } from '../helpers/attacked-services';
import { startRedis, type TestRedis } from './redis-server';
import { redisStore } from './store-table';

jest.setTimeout(90_000);

const SECRET = 'cooldown-replicas';
/** Both replicas' injected clock: the run failed a minute before. */
const T0 = Date.parse('2026-01-05T10:00:00Z');
const run = attackedRun;
const event = (name: string, atMs: number) => attackedEvent(name, 40, atMs);
const POLICY = `kind: Policy
name: checkout-recovers
rules:
  - cooldown:
      per: service
      until:
        - prometheus:
            query: 'preflight_test_errors{deployment="{{target.k8s.deployment}}"}'
            recoveredWhen: "< 0.05"
            for: 1h
`;

let redis: TestRedis;
let prom: PrometheusServer;
const stores: RedisStateStore[] = [];
const errors: Record<string, number> = { checkout: 0.3, cart: 0 };

beforeAll(async () => {
  [redis, prom] = await Promise.all([startRedis(), startErrorsPrometheus(errors)]);
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await Promise.all([redis?.destroy(), prom?.stop()]);
});

/** A replica of its own (own Redis client, own signal source, own app) on the shared Redis and Prometheus. */
async function replica(prefix: string) {
  const store = await redisStore(redis, prefix);
  stores.push(store);
  const gather = createSignalGatherer({
    config: { sources: [{ kind: 'prometheus', name: 'default', url: prom.url }], cacheTtlMs: 0, timeoutMs: 5000 },
  });
  const { app } = testApp(bundleFrom({ 'p.yaml': POLICY }), {
    secrets: [SECRET],
    state: { store, onUnavailable: 'deny', emergencyStop: 'enforce', eventToleranceMs: 900_000 },
    factSources: [signalFactSource(gather)],
    clock: () => new Date(T0),
  });
  return {
    event: (body: WebhookPayload) => signedRequest(app, body, { path: '/events', secret: SECRET }),
    preflight: async (id: number) => (await signedRequest(app, run(id), { secret: SECRET })).body.message as string,
  };
}

test('a failed run told to one replica keeps the other waiting until its services recover', async () => {
  const prefix = `cooldown${process.pid}:`;
  const [a, b] = [await replica(prefix), await replica(prefix)];
  for (const e of [event('created', T0 - 5 * 60_000), event('failed', T0 - 60_000)])
    expect((await a.event(e)).status).toBe(202);
  const notYet =
    /^Denied by 1 policy: \[checkout-recovers\] service k8s\.deployment=checkout is cooling down until it has recovered from execution 40 \(ended FAILED at 2026-01-05T09:59:00\.000Z\): query preflight_test_errors\{deployment="checkout"\} on prometheus "default" returned .* 0\.3, not yet < 0\.05/;
  expect(await b.preflight(41)).toMatch(notYet);
  expect(await a.preflight(41)).toMatch(notYet);
  // Back under the threshold: both read the same history (how long it has held moves with the wall clock
  // Prometheus runs on, and is never more than the minute since the run ended by the replicas' clock).
  errors.checkout = 0;
  const back =
    /deployment="checkout"\} on prometheus "default" is back < 0\.05 since 2026-01-05T(09:59|10:00):\d\d\.\d{3}Z, not yet for 1h: (59m|1h)(\d+s)? remains/;
  await waitFor(async () => back.test(await b.preflight(42)), 'the recovery to be scraped', 20000);
  expect(await a.preflight(42)).toMatch(back);
});
