import type { CompiledPolicy, PolicyBundle } from '../policy/core/compiled';
import { assembleBundle } from '../policy/compile/assemble-bundle';
import { passOutcome } from '../policy/engine/policy-texts';
import { policyOf } from '../policy/core/shapes';
import { isReJudged } from '../policy/compile/while-running';

/** The policy with only its rules that can change during a run (a new object: the bundle's is never written to). */
function guardedPart(policy: CompiledPolicy): CompiledPolicy {
  const rules = policy.rules.filter(isReJudged);
  return policyOf({ ...policy, rules, modifications: [], passed: passOutcome({ ...policy, rules }) });
}

/**
 * What is judged again while a run is in progress (docs/guard.md): the policies of `bundle` that
 * say `whileRunning:`, each with only its rules that can change during a run, with the bundle's
 * exceptions (one that expires no longer waives) and aliases. A bundle of its own, so the same pure
 * `decide` judges it, with its own index and needs (only the facts the guarded rules read are
 * gathered). Built once per policy set by whoever guards (run-guard.ts, eval).
 */
export function guardView(bundle: PolicyBundle): PolicyBundle {
  return assembleBundle({
    revision: bundle.revision,
    loadedAt: bundle.loadedAt,
    files: bundle.files,
    policies: bundle.policies.filter((p) => p.whileRunning !== undefined).map(guardedPart),
    exceptions: bundle.exceptions,
    aliases: bundle.aliases,
  });
}

/** Whether any policy of the set guards runs in progress. */
export const guardsRuns = (bundle: PolicyBundle): boolean => bundle.policies.some((p) => p.whileRunning !== undefined);
