import { RedisStateStore } from '../state/redis-state-store';
import type { StateStore } from '../state/state-store';
import type { GuardStore } from './guard-store';
import { MemoryGuardStore } from './memory-guard-store';
import { RedisGuardStore } from './redis-guard-store';

/** The guard's runs next to the state: in Redis when the state is (every replica shares them), else in this process. */
export function createGuardStore(state: StateStore): GuardStore {
  if (!(state instanceof RedisStateStore)) return new MemoryGuardStore();
  const { redis, keys, calls } = state.share();
  return new RedisGuardStore(redis, keys, calls);
}
