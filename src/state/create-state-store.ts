import type { Logger } from '../common/logger';
import { journaledExceptionUses } from './exception-use-journal';
import { MemoryStateStore } from './memory-state-store';
import type { StateConfig } from './state-config';
import type { StateStore } from './state-store';
import { withoutExceptionUseCounts } from './uncounted-exception-uses';

/**
 * Redis when a topology is configured (several replicas), else this process's memory (one
 * replica). In memory, exception uses are counted only with EXCEPTION_USES_FILE, which a restart
 * reads again; without it they are not counted at all: a count lost on restart would let a
 * one-use exception waive again (docs/approvals.md#4-maxuses-counted-across-replicas).
 */
export async function createStateStore(
  config: StateConfig,
  now = new Date(),
  logger?: Pick<Logger, 'warn'>,
): Promise<StateStore> {
  const timing = { executionTtlMs: config.executionTtlMs, eventToleranceMs: config.eventToleranceMs };
  if (config.redis) {
    // Loaded only here: a service on one replica never loads the Redis client (docs/decisions/0030).
    const { RedisStateStore } = await import('./redis-state-store');
    return new RedisStateStore({ ...timing, redis: config.redis, timeoutMs: config.timeoutMs, logger });
  }
  const memory = new MemoryStateStore(timing);
  if (config.exceptionUsesFile)
    return journaledExceptionUses(memory, config.exceptionUsesFile, now, (message, fields) =>
      logger?.warn(message, fields),
    );
  return withoutExceptionUseCounts(memory);
}

/** Whether the configured store counts exception uses so that a restart keeps them. */
export const keepsExceptionUses = (config: StateConfig): boolean =>
  config.redis !== undefined || config.exceptionUsesFile !== undefined;
