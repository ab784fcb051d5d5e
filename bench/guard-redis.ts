import { RedisStateStore } from '../src/state/redis-state-store';
import type { GuardStore } from '../src/guard/guard-store';
import { startRedis, type TestRedis } from '../test/state/redis-server';
import { createGuardStore } from '../src/guard/create-guard-store';

/**
 * Guard stores in a real redis-server of the bench's own (no persistence), each on a fresh key
 * prefix, as several replicas keep their runs (docs/guard.md); `skipped`, with why, where
 * redis-server cannot start.
 */
export async function redisGuardStores(): Promise<
  { open: (nowMs: number) => Promise<GuardStore>; close: () => Promise<void> } | { skipped: string }
> {
  let redis: TestRedis;
  try {
    redis = await startRedis();
  } catch (err) {
    return { skipped: `redis-server cannot start here (${err instanceof Error ? err.message : String(err)})` };
  }
  const open: RedisStateStore[] = [];
  return {
    async open() {
      const store = new RedisStateStore({
        executionTtlMs: 3_600_000,
        eventToleranceMs: 900_000,
        redis: { ...redis.connection, keyPrefix: `bench-guard-${open.length}:` },
        timeoutMs: 10_000,
      });
      open.push(store);
      for (let i = 0; i < 100 && !store.health().available; i++) await new Promise((r) => setTimeout(r, 50));
      return createGuardStore(store);
    },
    async close() {
      await Promise.all(open.map((s) => s.close()));
      await redis.destroy();
    },
  };
}
