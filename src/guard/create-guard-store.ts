import type { RedisStateStore } from '../state/redis-state-store';
import type { StateStore } from '../state/state-store';
import type { GuardStore } from './guard-store';
import { MemoryGuardStore } from './memory-guard-store';
import { RedisGuardStore } from './redis-guard-store';

/** The guard's runs next to the state: in Redis when the state is (every replica shares them), else in this process. */
export function createGuardStore(state: StateStore): GuardStore {
  // By its kind, not instanceof: the Redis store's module (and the Redis client) is loaded only when configured.
  if (state.kind !== 'redis') return new MemoryGuardStore();
  const { redis, keys, calls } = (state as RedisStateStore).share();
  return new RedisGuardStore(redis, keys, calls);
}
