import { MemoryStateStore } from '../../src/state/memory-state-store';
import { RedisStateStore } from '../../src/state/redis-state-store';
import type { StateStore, StateTiming } from '../../src/state/state-store';
import { waitFor } from '../helpers/server-process';
import { startRedis, type TestRedis } from './redis-server';

export const TIMING: StateTiming = { executionTtlMs: 3_600_000, eventToleranceMs: 900_000 };

let prefixes = 0;

/**
 * A Redis store on its own key prefix (so tests sharing one redis-server do not see each other),
 * connected. The command timeout is generous: hundreds of requests in one test process can hold
 * the event loop long enough for a 1 s timer to fire before a reply is read (a loaded CI machine
 * is not an unavailable Redis). A stopped Redis fails at once, without waiting for it.
 */
export async function redisStore(redis: TestRedis, prefix = `test${process.pid}-${++prefixes}:`, timing = TIMING): Promise<RedisStateStore> {
  const store = new RedisStateStore({ ...timing, url: redis.url, keyPrefix: prefix, timeoutMs: 10_000 });
  await waitFor(async () => store.health().available, 'Redis to connect');
  return store;
}

/**
 * The same behaviour tests run against every store: in memory and in a real redis-server.
 * Each `make()` gives a fresh, empty store; `cleanup()` closes them all and stops Redis.
 */
export function storeTable(): { stores: Array<[string, (timing?: StateTiming) => Promise<StateStore>]>; setup(): Promise<void>; cleanup(): Promise<void> } {
  let redis: TestRedis | undefined;
  const open: StateStore[] = [];
  const track = (s: StateStore) => { open.push(s); return s; };
  return {
    stores: [
      ['memory', async (timing = TIMING) => track(new MemoryStateStore(timing))],
      ['redis', async (timing = TIMING) => {
        if (!redis) throw new Error('storeTable().setup() was not run');
        return track(await redisStore(redis, undefined, timing));
      }],
    ],
    async setup() { redis = await startRedis(); },
    async cleanup() {
      await Promise.all(open.map((s) => s.close()));
      await redis?.stop();
    },
  };
}
