import type { PolicyBundle } from '../policy/core/compiled';
import type { Decision } from '../policy/core/decision';
import { decide } from '../policy/engine/decide';
import type { Facts } from '../policy/facts/facts';
import type { PreflightPayload } from '../payload/types';

/** How replay tells that a run's answer depended on an exception's use count: said in its reports. */
export const USES_DEPENDENCE_RULE =
  'each run a policy with a maxUses exception decided is decided twice more, once with every such exception unused (count 0) and once with every one used up (count = maxUses); a run allowed in one and denied in the other depended on a use count (the comparison above used the counts the archive recorded)';

/** A run whose answer depended on use counts: the exceptions that could tip it and the counts recorded. */
export interface UsesDependence {
  exceptions: string[];
  usesRecorded: Record<string, number>;
  /** Its answer under the proposed set with the recorded counts. */
  allowed: boolean;
}

/** The maxUses exceptions of the policies that decided the run (waived, or denied while one could have waived). */
function countedExceptions(bundle: PolicyBundle, decision: Decision): string[] {
  const names = new Set<string>();
  for (const r of decision.results) {
    if (r.result !== 'deny' && r.exception === undefined) continue;
    for (const e of bundle.exceptionsByPolicy.get(r.policy) ?? []) if (e.maxUses !== undefined) names.add(e.name);
  }
  return [...names];
}

/**
 * Whether the run's answer under `bundle` turns on a use count (USES_DEPENDENCE_RULE), or undefined
 * when it does not. Only runs with a maxUses exception in reach are decided again.
 */
export function usesDependence(
  bundle: PolicyBundle,
  payload: PreflightPayload,
  facts: Facts,
  decision: Decision,
  opts: { now: Date; decisionId: string },
): UsesDependence | undefined {
  const names = countedExceptions(bundle, decision);
  if (names.length === 0) return undefined;
  const withUses = (uses: Record<string, number>): boolean =>
    decide(bundle, payload, { ...facts, state: { ...facts.state, exceptionUses: uses } }, opts.now, {
      decisionId: opts.decisionId,
    }).allowed;
  const max = Object.fromEntries(
    bundle.exceptions.filter((e) => names.includes(e.name)).map((e) => [e.name, e.maxUses as number]),
  );
  if (withUses({}) === withUses(max)) return undefined;
  const recorded = facts.state?.exceptionUses ?? {};
  return {
    exceptions: names,
    usesRecorded: Object.fromEntries(names.map((n) => [n, recorded[n] ?? 0])),
    allowed: decision.allowed,
  };
}
