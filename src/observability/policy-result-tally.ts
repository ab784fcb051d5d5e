import type { Mode, PolicyResult, PolicyResultKind } from '../policy/types';

export interface PolicyResultCount { policy: string; mode: Mode; result: PolicyResultKind; count: number }

/** "mode result", the inner map's key, for every pair (the Record types make the compiler check both lists). */
const keysFor = (mode: Mode): Record<PolicyResultKind, string> => ({
  pass: `${mode} pass`, deny: `${mode} deny`, warn: `${mode} warn`, audit: `${mode} audit`, skipped: `${mode} skipped`,
});
const KEYS: Record<Mode, Record<PolicyResultKind, string>> = { enforce: keysFor('enforce'), warn: keysFor('warn'), audit: keysFor('audit') };

/**
 * preflight_policy_results_total, counted on the request path in plain maps: a decision at
 * 10,000 policies has dozens of results, and prom-client builds and validates a label key for
 * every inc(). The counts are handed to prom-client when it is scraped.
 */
export class PolicyResultTally {
  /** policy -> "mode result" -> count. */
  private readonly byPolicy = new Map<string, Map<string, number>>();

  /** Counts every result except `skipped` (a policy that did not apply). */
  add(results: readonly PolicyResult[]): void {
    for (const r of results) {
      if (r.result === 'skipped') continue;
      let counts = this.byPolicy.get(r.policy);
      if (!counts) this.byPolicy.set(r.policy, (counts = new Map()));
      // Constant keys: a key built per result would be a new string to hash every time.
      const key = KEYS[r.mode][r.result];
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }

  *counts(): IterableIterator<PolicyResultCount> {
    for (const [policy, counts] of this.byPolicy) {
      for (const [key, count] of counts) {
        const [mode, result] = key.split(' ') as [Mode, PolicyResultKind];
        yield { policy, mode, result, count };
      }
    }
  }
}
