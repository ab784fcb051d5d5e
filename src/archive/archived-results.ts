import type { PolicyResult } from '../policy/core/decision';

/**
 * A per-policy result as the archive keeps it. A pass is the policy's constant result (its reasons
 * only list its rules), so it keeps policy, mode and result; every other result keeps all but its
 * `source` (where the policy was defined says nothing about the run). A pass was 40 of a typical
 * decision's 50 results at 1,000 policies, and most of a line's bytes: this keeps lines about half
 * as long, and replay compares results in this same form.
 */
export type ArchivedResult = Omit<PolicyResult, 'source' | 'priority' | 'reasons' | 'signals'> &
  Partial<Pick<PolicyResult, 'priority' | 'reasons'>>;

export function archivedResults(results: readonly PolicyResult[]): ArchivedResult[] {
  // `signals` (what signal rules read) is left out: the archived facts hold the answers, and replay
  // of a line written before results had it must not call that a change.
  // A pass is built from its three fields, not copied first (most results of a decision are passes).
  return results.map((r) => {
    if (r.result === 'pass') return { policy: r.policy, mode: r.mode, result: r.result };
    const { source: _source, signals: _signals, ...rest } = r;
    return rest;
  });
}
