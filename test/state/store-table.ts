import { MemoryStateStore } from '../../src/state/memory-state-store';
import { RedisStateStore } from '../../src/state/redis-state-store';
import type { StateStore, StateTiming } from '../../src/state/state-store';
import { waitFor } from '../helpers/server-process';
import { startRedis, type RedisConnection, type TestRedis } from './redis-server';

export const TIMING: StateTiming = { executionTtlMs: 3_600_000, eventToleranceMs: 900_000 };

let prefixes = 0;
export const freshPrefix = (name = 'test') => `${name}${process.pid}-${++prefixes}:`;

/**
 * A Redis store on its own key prefix (so tests sharing one Redis do not see each other),
 * connected. The command timeout is generous: hundreds of requests in one test process can hold
 * the event loop long enough for a 1 s timer to fire before a reply is read (a loaded CI machine
 * is not an unavailable Redis). A stopped Redis fails at once, without waiting for it.
 */
export async function redisStore(
  redis: { connection: RedisConnection },
  prefix = freshPrefix(),
  timing = TIMING,
  timeoutMs = 10_000,
): Promise<RedisStateStore> {
  const store = new RedisStateStore({ ...timing, redis: { ...redis.connection, keyPrefix: prefix }, timeoutMs });
  await waitFor(async () => store.health().available, 'Redis to connect');
  return store;
}

export type MakeStore = (timing?: StateTiming) => Promise<StateStore>;

/** Fresh Redis stores on one topology (each on its own prefix); `close()` closes them all. */
export function redisStores(topology: () => { connection: RedisConnection } | undefined): {
  make: MakeStore;
  close(): Promise<void>;
} {
  const open: StateStore[] = [];
  return {
    async make(timing = TIMING) {
      const redis = topology();
      if (!redis) throw new Error('the Redis topology was not started');
      const store = await redisStore(redis, undefined, timing);
      open.push(store);
      return store;
    },
    async close() {
      await Promise.all(open.splice(0).map((s) => s.close()));
    },
  };
}

/**
 * The same behaviour tests run against every store: in memory and in a real redis-server
 * (the cluster and sentinel tests add their topologies). Each `make()` gives a fresh, empty store;
 * `cleanup()` closes them all and stops Redis.
 */
export function storeTable(): { stores: Array<[string, MakeStore]>; setup(): Promise<void>; cleanup(): Promise<void> } {
  let redis: TestRedis | undefined;
  const memory: StateStore[] = [];
  const inRedis = redisStores(() => redis);
  return {
    stores: [
      [
        'memory',
        async (timing = TIMING) => {
          const s = new MemoryStateStore(timing);
          memory.push(s);
          return s;
        },
      ],
      ['redis', inRedis.make],
    ],
    async setup() {
      redis = await startRedis();
    },
    async cleanup() {
      await Promise.all(memory.map((s) => s.close()));
      await inRedis.close();
      await redis?.destroy();
    },
  };
}

/** A redis-server for the tests of one file, and the stores of two replicas on it. */
export interface ReplicasOnRedis {
  /** The server, started before the file's tests. */
  readonly redis: TestRedis;
  /** Two replicas' stores: a connection each, on one fresh key prefix named after `name`. */
  pair(name: string): Promise<{ prefix: string; a: RedisStateStore; b: RedisStateStore }>;
}

/** Starts a redis-server before the file's tests; after them, closes every store `pair` opened and destroys it. */
export function replicasOnRedis(): ReplicasOnRedis {
  let redis: TestRedis | undefined;
  const open: RedisStateStore[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
    await redis?.destroy();
  });
  const started = (): TestRedis => {
    if (redis === undefined) throw new Error('redis-server is started before the tests');
    return redis;
  };
  return {
    get redis() {
      return started();
    },
    async pair(name) {
      const prefix = freshPrefix(name);
      const [a, b] = [await redisStore(started(), prefix), await redisStore(started(), prefix)];
      open.push(a, b);
      return { prefix, a, b };
    },
  };
}
