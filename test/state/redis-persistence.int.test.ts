import { RedisStateStore } from '../../src/state/redis-state-store';
import { waitFor } from '../helpers/server-process';
import { guardrailApp } from './guardrail-app';
import { startRedis, type TestRedis } from './redis-server';
import { at, executionPayload, engagedPayload, T0 } from './state-events';
import { freshPrefix, redisStore, TIMING } from './store-table';

let redis: TestRedis;
const stores: RedisStateStore[] = [];
beforeAll(async () => {
  redis = await startRedis({ aof: true });
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await redis.destroy();
});

describe('one Redis server with AOF (appendfsync always)', () => {
  test('killed (SIGKILL) and restarted: every acknowledged event is still there; meanwhile runs are denied, not allowed', async () => {
    const prefix = freshPrefix('aof');
    const store = await redisStore(redis, prefix);
    stores.push(store);
    const gate = guardrailApp(store);
    expect((await gate.event(engagedPayload(at(T0 - 5000), 'jane'))).status).toBe(202);
    const sent = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        gate.event(executionPayload('created', 500 + i, { env: 'aof', time: at(T0 - 1000) })),
      ),
    );
    expect(sent.map((r) => r.status)).toEqual(Array(50).fill(202));
    await redis.stop('SIGKILL');
    await waitFor(async () => !store.health().available, 'the client to notice');
    expect((await gate.preflight(1, 'aof')).status).toBe(503);
    await redis.start();
    await waitFor(async () => store.health().available, 'the client to reconnect');
    const view = await store.read({ emergencyStop: true, running: true, scopes: ['environment:aof'] }, new Date(T0));
    expect([view.emergencyStop?.engaged, view.running?.['environment:aof'].length]).toEqual([true, 50]);
    expect((await gate.preflight(1, 'aof')).status).toBe(403);
  });
});

describe('a REDIS_URL naming a database the server does not have', () => {
  test('is state unavailable (runs denied, /readyz says why), not silently database 0', async () => {
    const prefix = freshPrefix('db');
    const onDbZero = await redisStore(redis, prefix);
    stores.push(onDbZero);
    expect((await guardrailApp(onDbZero).event(engagedPayload(at(T0 - 5000), 'jane'))).status).toBe(202);

    const store = new RedisStateStore({
      ...TIMING,
      redis: { topology: { kind: 'standalone', url: `${redis.url}/99` }, waitReplicas: 0, keyPrefix: prefix },
      timeoutMs: 10_000,
    });
    stores.push(store);
    await waitFor(async () => store.health().message?.includes('database') ?? false, 'the refused SELECT to be seen');
    expect(store.health()).toEqual({
      store: 'redis',
      available: false,
      message: expect.stringContaining('Redis refused the database REDIS_URL names (ERR DB index is out of range)'),
    });
    await expect(store.read({ emergencyStop: true, running: false, scopes: [] }, new Date(T0))).rejects.toThrow(
      'REDIS_URL names one the server has',
    );
    expect((await guardrailApp(store).preflight(1, 'db')).status).toBe(503);
  });
});
