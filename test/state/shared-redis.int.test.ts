import request from 'supertest';
import type { RedisStateStore } from '../../src/state/redis-state-store';
import { waitFor } from '../helpers/server-process';
import { guardrailApp } from './guardrail-app';
import { startRedis, type TestRedis } from './redis-server';
import { concurrentEventsAtTwoInstances } from './shared-instances';
import { at, engagedPayload, executionPayload, T0 } from './state-events';
import { redisStore } from './store-table';

const POLICIES = {
  'p.yaml': 'kind: Policy\nname: one-at-a-time\nrules:\n  - concurrency: {maxRunning: 1, per: environment}\n',
};

let redis: TestRedis;
const stores: RedisStateStore[] = [];
let prefixes = 0;
/** A client of its own on the shared Redis, under one test's key prefix (closed at the end). */
async function sharedStore(prefix: string): Promise<RedisStateStore> {
  const store = await redisStore(redis, prefix);
  stores.push(store);
  return store;
}

/** A service instance of its own (own client, own app) on the shared Redis, under one test's key prefix. */
async function instance(prefix: string, onUnavailable: 'deny' | 'allow' = 'deny') {
  return guardrailApp(await sharedStore(prefix), { files: POLICIES, onUnavailable });
}

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await redis.destroy();
});

describe('two service instances sharing one Redis', () => {
  test('what one instance receives, the other decides on', async () => {
    const prefix = `shared${process.pid}-${++prefixes}:`;
    const [a, b] = [await instance(prefix), await instance(prefix)];
    expect((await a.event(executionPayload('created', 1, { env: 'shared-1', time: at(T0 - 1000) }))).status).toBe(202);
    const res = await b.preflight(2, 'shared-1');
    expect([res.status, res.body.message]).toEqual([
      403,
      expect.stringContaining('environment shared-1 already has 1 running execution (at most 1): 1'),
    ]);
    await b.event(executionPayload('completed', 1, { env: 'shared-1' }));
    expect((await a.preflight(2, 'shared-1')).status).toBe(200);
    await a.event(engagedPayload(at(T0 - 500), 'jane'));
    expect((await b.preflight(3, 'shared-2')).body.message).toContain('the emergency stop is engaged (by jane');
  });

  test('events arriving at both instances at once are all counted exactly once, duplicates included', async () => {
    const prefix = `shared${process.pid}-${++prefixes}:`;
    await concurrentEventsAtTwoInstances(await sharedStore(prefix), await sharedStore(prefix));
  });

  test('while Redis is down a preflight is denied with a message saying why; both recover by themselves when it returns', async () => {
    const prefix = `shared${process.pid}-${++prefixes}:`;
    const [deny, allow] = [await instance(prefix, 'deny'), await instance(prefix, 'allow')];
    await redis.stop();
    try {
      await waitFor(async () => stores.every((s) => !s.health().available), 'the clients to notice Redis is gone');
      const denied = await deny.preflight(50, 'outage');
      expect([denied.status, denied.body.message]).toEqual([
        503,
        expect.stringMatching(
          /^the state store is unavailable \(Redis .*\), so emergency stop, concurrency, cool-down and quota policies cannot be checked and the run is denied \(STATE_UNAVAILABLE=deny\)/,
        ),
      ]);
      expect((await allow.preflight(50, 'outage')).status).toBe(200);
      const event = await deny.event(executionPayload('created', 50, { env: 'outage' }));
      expect([event.status, event.body.message]).toEqual([
        503,
        expect.stringContaining('the event was not recorded, deliver it again'),
      ]);
      const ready = await request(deny.app).get('/readyz');
      expect([
        ready.status,
        ready.body.state.store,
        ready.body.state.available,
        ready.body.state.onUnavailable,
      ]).toEqual([200, 'redis', false, 'deny']);
    } finally {
      await redis.start();
    }
    await waitFor(async () => stores.every((s) => s.health().available), 'the clients to reconnect');
    expect((await deny.event(executionPayload('created', 51, { env: 'outage' }))).status).toBe(202);
    expect((await allow.preflight(52, 'outage')).status).toBe(403);
    expect((await deny.preflight(51, 'outage')).status).toBe(200);
    expect((await request(deny.app).get('/readyz')).body.state).toEqual({
      store: 'redis',
      available: true,
      onUnavailable: 'deny',
    });
  });
});
