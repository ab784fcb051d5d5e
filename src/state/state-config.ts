import type { OnUnavailable } from './preflight-state';

/** Settings of the guardrails with memory (docs/state.md). */
export interface StateConfig {
  /** REDIS_URL: share state between replicas in Redis; unset = in memory (one replica). */
  redisUrl?: string;
  /** REDIS_KEY_PREFIX (default `preflight-gate:`): several services can share one Redis. */
  redisKeyPrefix: string;
  /** STATE_UNAVAILABLE (default deny): what a preflight does while Redis cannot be reached. */
  onUnavailable: OnUnavailable;
  /** EMERGENCY_STOP_POLICY (default enforce): the built-in emergency stop policy, or off. */
  emergencyStop: 'enforce' | 'off';
  /** EXECUTION_TTL_SECONDS (default 14400 = 4h): a run that never reports its end stops counting. */
  executionTtlMs: number;
  /** EVENT_TOLERANCE_SECONDS (default 900): events older (or further ahead) than this are ignored. */
  eventToleranceMs: number;
  /** STATE_TIMEOUT_MS (default 1000): the longest a state read or update may take. */
  timeoutMs: number;
}

export type StateConfigResult = { ok: true; config: StateConfig } | { ok: false; message: string };

class Invalid extends Error {}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!values.includes(raw as T)) throw new Invalid(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return raw as T;
}

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new Invalid(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  return value;
}

function redisUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.REDIS_URL;
  if (raw === undefined || raw === '') return undefined;
  if (!/^rediss?:\/\/[^\s]+$/.test(raw)) throw new Invalid('REDIS_URL must look like redis://host:6379/0 or rediss://host:6380 (or be unset for in-memory state)');
  return raw;
}

export function parseStateConfig(env: NodeJS.ProcessEnv): StateConfigResult {
  try {
    return {
      ok: true,
      config: {
        redisUrl: redisUrl(env),
        redisKeyPrefix: env.REDIS_KEY_PREFIX || 'preflight-gate:',
        onUnavailable: oneOf(env, 'STATE_UNAVAILABLE', ['deny', 'allow'], 'deny'),
        emergencyStop: oneOf(env, 'EMERGENCY_STOP_POLICY', ['enforce', 'off'], 'enforce'),
        executionTtlMs: whole(env, 'EXECUTION_TTL_SECONDS', 14400, 60, 7 * 86400) * 1000,
        eventToleranceMs: whole(env, 'EVENT_TOLERANCE_SECONDS', 900, 1, 86400) * 1000,
        timeoutMs: whole(env, 'STATE_TIMEOUT_MS', 1000, 50, 10000),
      },
    };
  } catch (err) {
    if (err instanceof Invalid) return { ok: false, message: err.message };
    throw err;
  }
}
