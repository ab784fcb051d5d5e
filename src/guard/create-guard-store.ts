import { RedisStateStore } from '../state/redis-state-store';
import type { StateStore } from '../state/state-store';
import type { GuardStore } from './guard-store';
import { MemoryGuardStore } from './memory-guard-store';

/** The guard's runs next to the state: in Redis when the state is (every replica shares them), else in this process. */
export function createGuardStore(state: StateStore): GuardStore {
  return state instanceof RedisStateStore ? state.guardStore() : new MemoryGuardStore();
}
