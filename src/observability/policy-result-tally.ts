import { MODES, type Mode, type PolicyResult, type PolicyResultKind } from '../policy/types';

export interface PolicyResultCount { policy: string; mode: Mode; result: PolicyResultKind; count: number }

/** The results counted: every kind but `skipped` (a policy that did not apply). */
const COUNTED: readonly Exclude<PolicyResultKind, 'skipped'>[] = ['pass', 'deny', 'warn', 'audit'];

/** A mode's slots, one per counted result, from `first` on; `skipped` is never counted (-1). */
const slotsFrom = (first: number): Record<PolicyResultKind, number> => ({ pass: first, deny: first + 1, warn: first + 2, audit: first + 3, skipped: -1 });
/** Each (mode, result) pair's slot in a policy's counts: a literal, so the compiler checks every mode and result. */
const SLOT: Record<Mode, Record<PolicyResultKind, number>> = { enforce: slotsFrom(0), warn: slotsFrom(4), audit: slotsFrom(8) };
const SLOTS = MODES.length * COUNTED.length;

/**
 * preflight_policy_results_total, counted on the request path in a Float64Array per policy (one
 * lookup and one increment per result): a decision at 10,000 policies has dozens of results, and
 * prom-client builds and validates a label key for every inc(). The counts are handed to
 * prom-client when it is scraped. Float64 counts are exact up to 2^53.
 */
export class PolicyResultTally {
  private readonly byPolicy = new Map<string, Float64Array>();

  /** Counts every result except `skipped`. */
  add(results: readonly PolicyResult[]): void {
    for (const r of results) {
      const slot = SLOT[r.mode][r.result];
      if (slot < 0) continue;
      let counts = this.byPolicy.get(r.policy);
      if (!counts) this.byPolicy.set(r.policy, (counts = new Float64Array(SLOTS)));
      counts[slot]++;
    }
  }

  *counts(): IterableIterator<PolicyResultCount> {
    for (const [policy, counts] of this.byPolicy) {
      for (const mode of MODES) {
        for (const result of COUNTED) {
          const count = counts[SLOT[mode][result]];
          if (count > 0) yield { policy, mode, result, count };
        }
      }
    }
  }
}
