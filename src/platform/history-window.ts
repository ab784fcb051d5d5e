import type { PolicyBundle } from '../policy/core/compiled';

/**
 * How far back the bundle's cool-down and quota rules look: the ended-runs search rebuilds that
 * much history (0 when no rule looks back). Read from the needs the rules declared (bundle.needs).
 */
export function historyWindowMs(bundle: PolicyBundle | undefined): number {
  let longest = 0;
  for (const need of bundle?.needs ?? []) {
    if (need.kind === 'ended' || need.kind === 'started') longest = Math.max(longest, need.windowMs);
  }
  return longest;
}
