import request from 'supertest';
import type { RedisStateStore } from '../../src/state/redis-state-store';
import { signedRequest } from '../helpers/signed-request';
import { waitFor } from '../helpers/server-process';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';
import { startRedis, type TestRedis } from '../state/redis-server';
import { executionPayload, T0 } from '../state/state-events';
import { redisStore, TIMING } from '../state/store-table';
import { seriesOf } from './audit-sink';

/** A real redis-server, stopped mid-test: the metrics show the outage and the recovery. */
const SECRET = 'redis-metrics-secret';
let redis: TestRedis;
let store: RedisStateStore;

beforeAll(async () => {
  redis = await startRedis();
  store = await redisStore(redis);
});
afterAll(async () => {
  await store?.close();
  await redis?.stop();
});

describe('with the Redis store, while Redis is stopped and started again', () => {
  it('preflight_state_store_up follows Redis, and an event refused meanwhile counts as unavailable exactly once', async () => {
    const state = {
      store,
      onUnavailable: 'deny' as const,
      emergencyStop: 'enforce' as const,
      eventToleranceMs: TIMING.eventToleranceMs,
    };
    const { app, metrics } = testApp(
      bundleFrom({ 'p.yaml': 'kind: Policy\nname: any\nrules:\n  - environments: {blocked: [dev]}\n' }),
      { secrets: [SECRET], state, clock: () => new Date(T0) },
    );
    const send = (id: number) =>
      signedRequest(app, executionPayload('created', id), { path: '/events', secret: SECRET });
    const up = async () =>
      (await request(app).get('/metrics')).text.match(/^preflight_state_store_up\{store="redis"\} (\d)$/m)?.[1];
    const counted = async (outcome: string) =>
      (await seriesOf(metrics, 'preflight_events_total'))[`event=experiment.execution.created,outcome=${outcome}`];

    expect((await send(1)).status).toBe(202);
    expect([await up(), await counted('recorded'), await counted('unavailable')]).toEqual(['1', 1, 0]);

    await redis.stop();
    try {
      await waitFor(async () => !store.health().available, 'the client to notice Redis is gone');
      expect(await up()).toBe('0');
      const refused = await send(2);
      expect([refused.status, refused.body.message]).toEqual([
        503,
        expect.stringContaining('the state store is unavailable'),
      ]);
      expect([await counted('recorded'), await counted('unavailable')]).toEqual([1, 1]);
    } finally {
      await redis.start();
    }

    await waitFor(async () => store.health().available, 'the client to reconnect');
    expect(await up()).toBe('1');
    expect((await send(2)).status).toBe(202);
    expect([await counted('recorded'), await counted('unavailable')]).toEqual([2, 1]);
  }, 30000);
});
