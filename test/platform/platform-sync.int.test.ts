import { EnvironmentDirectory } from '../../src/platform/environment-directory';
import { createPlatformClient } from '../../src/platform/platform-client';
import { PlatformSync } from '../../src/platform/platform-sync';
import { createLogger } from '../../src/common/logger';
import { MemoryStateStore } from '../../src/state/memory-state-store';
import { RedisStateStore } from '../../src/state/redis-state-store';
import { startRedis } from '../state/redis-server';
import type { StateStore } from '../../src/state/state-store';
import { disengagedPayload, engagedPayload, executionPayload, stateEvent } from '../state/state-events';
import { environment, executionItem, type FakeSteadybit } from '../helpers/fake-steadybit';
import { fakeSteadybitEachTest } from '../helpers/fake-steadybit-each-test';
import { fakePlatformConfig } from '../helpers/fake-platform-config';

const PROD = '2f0b0ab4-7c52-4b8e-9a0e-2d0a3b7a1c11';
const MIN = 60_000;

let fake: FakeSteadybit;
fakeSteadybitEachTest((started) => {
  fake = started;
  fake.environments = [environment(PROD, 'production')];
});

const iso = (ms: number) => new Date(ms).toISOString();
const newStore = () => new MemoryStateStore({ executionTtlMs: 4 * 60 * MIN, eventToleranceMs: 15 * MIN });

function sync(store: StateStore, historyMs = 60 * MIN) {
  const config = fakePlatformConfig(fake);
  const client = createPlatformClient(config, { random: () => 0 });
  const directory = new EnvironmentDirectory(client, { maxAgeMs: 3600_000, waitMs: 2000, minGapMs: 10_000 });
  const logger = createLogger('error', { silent: true });
  return new PlatformSync({
    client,
    store,
    directory,
    logger,
    intervalMs: 30_000,
    environmentsRefreshMs: 300_000,
    historyMs: () => historyMs,
  });
}

const stop = (store: StateStore) =>
  store.read({ emergencyStop: true, running: false, scopes: [] }, new Date()).then((v) => v.emergencyStop);

describe('the emergency stop from the source', () => {
  test('a restarted in-memory replica learns an engaged stop at start-up', async () => {
    fake.killswitch = {
      active: true,
      engagedBy: 'u-7',
      engagedByDetails: { username: 'u-7', name: 'Jane Doe' },
      engaged: iso(Date.now() - 10 * MIN),
    };
    const store = newStore();
    expect(await stop(store)).toEqual({ engaged: false });
    await sync(store).syncOnce();
    expect(await stop(store)).toEqual({ engaged: true, by: 'Jane Doe', since: fake.killswitch.engaged });
  });

  test('a replica that missed the disengagement lets runs through again at the next sync', async () => {
    const store = newStore();
    await store.apply(stateEvent(engagedPayload(iso(Date.now() - 10 * MIN))), new Date());
    await sync(store).syncOnce();
    expect(await stop(store)).toEqual({ engaged: false });
  });

  test('the same with Redis: the API answer ends exactly the engagement the shared state holds', async () => {
    const redis = await startRedis();
    const store = new RedisStateStore({
      redis: { ...redis.connection, keyPrefix: 'pa:' },
      timeoutMs: 1000,
      executionTtlMs: 4 * 60 * MIN,
      eventToleranceMs: 15 * MIN,
    });
    try {
      const deadline = Date.now() + 10_000;
      while (!store.health().available && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await store.apply(stateEvent(engagedPayload(iso(Date.now() - 10 * MIN))), new Date());
      expect((await stop(store))?.engaged).toBe(true);
      await sync(store).syncOnce();
      expect(await stop(store)).toEqual({ engaged: false });
    } finally {
      await store.close();
      await redis.stop();
    }
  });

  test('an engagement event newer than the API read is kept (the read is as of the moment it was sent)', async () => {
    const store = newStore();
    const s = sync(store);
    await store.apply(stateEvent(engagedPayload(iso(Date.now() + 1000))), new Date());
    await s.syncOnce();
    expect((await stop(store))?.engaged).toBe(true);
  });

  test('an engagement event dated within the clock allowance (5 s) before the read outlives a "not engaged" answer', async () => {
    const store = newStore();
    await store.apply(stateEvent(engagedPayload(iso(Date.now() - 2000))), new Date());
    await sync(store).syncOnce();
    expect((await stop(store))?.engaged).toBe(true);
  });

  test('a replayed disengagement of an older engagement does not end the engagement the API read', async () => {
    fake.killswitch = { active: true, engaged: iso(Date.now() - 5 * MIN), engagedBy: 'u-7' };
    const store = newStore();
    await sync(store).syncOnce();
    await store.apply(
      stateEvent(disengagedPayload(iso(Date.now() - 10 * MIN), iso(Date.now() - 20 * MIN))),
      new Date(),
    );
    expect((await stop(store))?.engaged).toBe(true);
  });

  test('an event between two reads applies at once', async () => {
    fake.killswitch = { active: true, engaged: iso(Date.now() - 10 * MIN), engagedBy: 'u-7' };
    const store = newStore();
    await sync(store).syncOnce();
    await store.apply(stateEvent(disengagedPayload(iso(Date.now()), fake.killswitch.engaged as string)), new Date());
    expect(await stop(store)).toEqual({ engaged: false });
  });

  test('an outage keeps what the state has, and says so', async () => {
    fake.killswitch = { active: true, engaged: iso(Date.now() - 10 * MIN), engagedBy: 'u-7' };
    const store = newStore();
    const s = sync(store);
    await s.syncOnce();
    fake.down = true;
    await s.syncOnce();
    expect((await stop(store))?.engaged).toBe(true);
    expect(s.status().killswitch).toMatchObject({
      syncedAt: expect.any(String),
      lastError: expect.stringContaining('HTTP 503'),
    });
    expect(s.killswitchConfirmed()).toBe(true);
  });
});

describe('running runs, cool-downs and quotas rebuilt from the execution search', () => {
  const scopes = ['environment:production', `environment:${PROD}`, 'team:adm'];
  const read = (store: StateStore, sinceMs: number) =>
    store.read(
      { emergencyStop: false, running: true, scopes, endedSinceMs: sinceMs, startedSinceMs: sinceMs },
      new Date(),
    );

  test('a restarted replica counts the runs running, by environment id and name and by team', async () => {
    fake.executions = [
      executionItem(11, {
        state: 'RUNNING',
        environment: 'production',
        created: iso(Date.now() - 5 * MIN),
        started: iso(Date.now() - 5 * MIN),
      }),
      executionItem(12, { state: 'CREATED', environment: 'production', created: iso(Date.now() - MIN) }),
    ];
    const store = newStore();
    await sync(store).syncOnce();
    const view = await read(store, Date.now() - 60 * MIN);
    for (const scope of scopes) expect(view.running?.[scope].map((r) => r.id)).toEqual(['11', '12']);
  });

  test('ended runs rebuild cool-down and quota history; a lost completed event frees its capacity', async () => {
    const store = newStore();
    await store.apply(
      stateEvent(executionPayload('created', 21, { env: PROD, time: iso(Date.now() - 20 * MIN) })),
      new Date(),
    );
    fake.executions = [
      executionItem(21, {
        state: 'COMPLETED',
        environment: 'production',
        created: iso(Date.now() - 20 * MIN),
        ended: iso(Date.now() - 2 * MIN),
      }),
      executionItem(22, {
        state: 'FAILED',
        environment: 'production',
        created: iso(Date.now() - 40 * MIN),
        ended: iso(Date.now() - 30 * MIN),
      }),
      executionItem(23, {
        state: 'FAILED',
        environment: 'production',
        created: iso(Date.now() - 200 * MIN),
        ended: iso(Date.now() - 190 * MIN),
      }),
    ];
    await sync(store, 60 * MIN).syncOnce();
    const view = await read(store, Date.now() - 60 * MIN);
    expect(view.running?.[`environment:${PROD}`]).toEqual([]);
    expect(view.ended?.[`environment:${PROD}`].map((r) => [r.id, r.state])).toEqual([
      ['22', 'FAILED'],
      ['21', 'COMPLETED'],
    ]);
    expect(view.started?.['team:adm'].map((r) => r.id)).toEqual(['22', '21']);
    // Only the window the rules look back over was asked for.
    const endedSearch = fake
      .calls('/api/experiments/executions')
      .map((r) => r.body as { endedFrom?: string })
      .find((b) => b.endedFrom);
    expect(Date.parse(endedSearch?.endedFrom as string)).toBeGreaterThan(Date.now() - 61 * MIN);
  });

  test('later syncs search ended runs only since the last one, and send nothing new to the store', async () => {
    fake.executions = [
      executionItem(31, { state: 'RUNNING', environment: 'production', created: iso(Date.now() - MIN) }),
    ];
    const store = newStore();
    const applied: string[] = [];
    const counting: StateStore = Object.assign(Object.create(store) as StateStore, {
      apply: (e: Parameters<StateStore['apply']>[0], now: Date) => {
        applied.push(e.name);
        return store.apply(e, now);
      },
    });
    const s = sync(counting, 24 * 60 * MIN);
    await s.syncOnce();
    await s.syncOnce();
    expect(applied.filter((n) => n.startsWith('platform-api.execution'))).toEqual(['platform-api.execution.started']);
    const froms = fake
      .calls('/api/experiments/executions')
      .map((r) => (r.body as { endedFrom?: string }).endedFrom)
      .filter(Boolean) as string[];
    expect(froms).toHaveLength(2);
    expect(Date.parse(froms[1]) - Date.parse(froms[0])).toBeGreaterThan(23 * 60 * MIN);
  });
});
