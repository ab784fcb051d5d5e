import { ConfigError, envInteger, envOneOf } from '../common/env-values';
import { emergencyStopSetting, type EmergencyStopSetting } from '../policy/compile/built-in-policies';
import type { OnUnavailable } from './state-fact-source';
import { parseRedisConfig, type RedisConfig } from './redis-config';

/** Settings of the guardrails with memory (docs/state.md). */
export interface StateConfig {
  /** REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES (and REDIS_*): state shared by every replica; unset = in memory (one replica). */
  redis?: RedisConfig;
  /**
   * EXCEPTION_USES_FILE: without Redis, the file exception uses (maxUses) are kept in, so a restart
   * keeps them; unset = not counted, and such an exception waives no run (docs/approvals.md).
   */
  exceptionUsesFile?: string;
  /** STATE_UNAVAILABLE (default deny): what a preflight does while Redis cannot be reached. */
  onUnavailable: OnUnavailable;
  /** EMERGENCY_STOP_POLICY (default enforce): the built-in emergency stop policy, or off. */
  emergencyStop: EmergencyStopSetting;
  /** EXECUTION_TTL_SECONDS (default 14400 = 4h): a run that never reports its end stops counting. */
  executionTtlMs: number;
  /** EVENT_TOLERANCE_SECONDS (default 900): events older (or further ahead) than this are ignored. */
  eventToleranceMs: number;
  /** STATE_TIMEOUT_MS (default 1000): the longest a state read or update may take. */
  timeoutMs: number;
}

/** The settings of docs/state.md; a bad value is a ConfigError naming the variable. */
export function parseStateConfig(env: NodeJS.ProcessEnv): StateConfig {
  const redis = parseRedisConfig(env);
  const exceptionUsesFile = env.EXCEPTION_USES_FILE?.trim() || undefined;
  if (redis && exceptionUsesFile)
    throw new ConfigError(
      'EXCEPTION_USES_FILE is set with Redis: the uses are counted in Redis, shared by every replica; unset EXCEPTION_USES_FILE',
    );
  return {
    redis,
    ...(exceptionUsesFile ? { exceptionUsesFile } : {}),
    onUnavailable: envOneOf(env, 'STATE_UNAVAILABLE', ['deny', 'allow'], 'deny'),
    emergencyStop: emergencyStopSetting(env),
    executionTtlMs: envInteger(env, 'EXECUTION_TTL_SECONDS', 14400, 60, 7 * 86400) * 1000,
    eventToleranceMs: envInteger(env, 'EVENT_TOLERANCE_SECONDS', 900, 1, 86400) * 1000,
    timeoutMs: envInteger(env, 'STATE_TIMEOUT_MS', 1000, 50, 10000),
  };
}
