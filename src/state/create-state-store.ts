import { MemoryStateStore } from './memory-state-store';
import { RedisStateStore } from './redis-state-store';
import type { StateConfig } from './state-config';
import type { StateStore } from './state-store';

/** Redis when a topology is configured (several replicas), else this process's memory (one replica). */
export function createStateStore(config: StateConfig): StateStore {
  const timing = { executionTtlMs: config.executionTtlMs, eventToleranceMs: config.eventToleranceMs };
  if (!config.redis) return new MemoryStateStore(timing);
  return new RedisStateStore({ ...timing, redis: config.redis, timeoutMs: config.timeoutMs });
}
