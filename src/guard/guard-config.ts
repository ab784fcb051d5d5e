import { envInteger } from '../common/env-values';

/** The guard's settings (docs/guard.md). */
export interface GuardConfig {
  /** GUARD_INTERVAL_SECONDS (default 15): how often runs in progress are judged again. */
  intervalMs: number;
  /** GUARD_LEASE_SECONDS (default twice the interval, at least 30): how long one replica holds a run's cancel. */
  leaseMs: number;
}

export function parseGuardConfig(env: NodeJS.ProcessEnv): GuardConfig {
  const interval = envInteger(env, 'GUARD_INTERVAL_SECONDS', 15, 1, 3600);
  const lease = envInteger(env, 'GUARD_LEASE_SECONDS', Math.max(30, 2 * interval), 2, 7200);
  return { intervalMs: interval * 1000, leaseMs: lease * 1000 };
}
