import { MemoryStateStore } from './memory-state-store';
import { RedisStateStore } from './redis-state-store';
import type { StateConfig } from './state-config';
import type { StateStore } from './state-store';
import { withoutExceptionUseCounts } from './uncounted-exception-uses';

/**
 * Redis when a topology is configured (several replicas), else this process's memory (one
 * replica). In memory, exception uses are not counted: a count lost on restart would let a
 * one-use exception waive again (docs/approvals.md#4-maxuses-counted-across-replicas).
 */
export function createStateStore(config: StateConfig): StateStore {
  const timing = { executionTtlMs: config.executionTtlMs, eventToleranceMs: config.eventToleranceMs };
  if (!config.redis) return withoutExceptionUseCounts(new MemoryStateStore(timing));
  return new RedisStateStore({ ...timing, redis: config.redis, timeoutMs: config.timeoutMs });
}

/** Whether the configured store counts exception uses so that a restart (and another replica) keeps them. */
export const keepsExceptionUses = (config: StateConfig): boolean => config.redis !== undefined;
