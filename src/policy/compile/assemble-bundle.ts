import type { CompiledException, CompiledPolicy, PolicyBundle, RuleCheck } from '../core/compiled';
import { policyOf, ruleOf } from '../core/shapes';
import { invertAliases } from '../engine/environments';
import { buildEnvironmentNames } from '../engine/environment-names';
import { exceptionsByPolicy } from '../engine/exceptions-by-policy';
import { approverNeeds } from '../engine/waiver-blocker';
import { collectNeeds, type Need } from '../facts/need';
import { buildPolicyIndex } from '../engine/policy-index';

/** The compiled parts a bundle is made of (policies in bundle order: priority, then name, built-in first). */
export type BundleParts = Pick<
  PolicyBundle,
  'revision' | 'loadedAt' | 'files' | 'policies' | 'exceptions' | 'aliases'
> &
  Partial<Pick<PolicyBundle, 'exceptionSettings'>>;

/** An exception with maxUses needs its use count from the state store (docs/approvals.md). */
const useNeeds = (e: CompiledException): { needs: readonly Need[] } => ({
  needs: e.maxUses === undefined ? [] : [{ kind: 'exception-uses', exception: e.name }],
});

/**
 * The policies with the answer slot of each rule whose check other rules share: one slot per shared
 * check, numbered in bundle order, where a decision keeps its answer so it is asked once
 * (EvaluationContext.ruleAnswers); a check of one rule gets none. New rule and policy objects: the
 * parts are never written to, and slots given by an earlier assembly are numbered again.
 */
function withAnswerSlots(policies: readonly CompiledPolicy[]): { policies: CompiledPolicy[]; sharedChecks: number } {
  const uses = new Map<RuleCheck['check'], number>();
  for (const policy of policies) for (const rule of policy.rules) uses.set(rule.check, (uses.get(rule.check) ?? 0) + 1);
  const slots = new Map<RuleCheck['check'], number>();
  const slotOf = (check: RuleCheck['check']): number | undefined => {
    if ((uses.get(check) ?? 0) < 2) return undefined;
    let slot = slots.get(check);
    if (slot === undefined) slots.set(check, (slot = slots.size));
    return slot;
  };
  const numbered = policies.map((policy) =>
    policyOf({ ...policy, rules: policy.rules.map((rule) => ruleOf({ ...rule, answerSlot: slotOf(rule.check) })) }),
  );
  return { policies: numbered, sharedChecks: slots.size };
}

/**
 * A bundle from its compiled parts, with everything derived from them at load: the index, the needs,
 * the lookups a decision reads. Read-only from here on: a decision never writes to it or fills a
 * cache keyed by it (docs/decisions/0004-per-evaluation-context.md).
 */
export function assembleBundle(parts: BundleParts): PolicyBundle {
  const numbered = withAnswerSlots(parts.policies);
  const policies = Object.freeze(numbered.policies);
  const exceptions = Object.freeze([...parts.exceptions]);
  return Object.freeze({
    revision: parts.revision,
    loadedAt: parts.loadedAt,
    files: Object.freeze([...parts.files]),
    policies,
    exceptions,
    ...(parts.exceptionSettings ? { exceptionSettings: parts.exceptionSettings } : {}),
    aliases: parts.aliases,
    aliasesById: invertAliases(parts.aliases),
    environmentNames: buildEnvironmentNames(
      parts.aliases,
      policies.flatMap((p) => p.matchSpec?.environments ?? []),
    ),
    exceptionsByPolicy: exceptionsByPolicy(exceptions),
    index: buildPolicyIndex(policies),
    // Rules' needs, and the environment names scopes that list environments need.
    needs: collectNeeds([
      ...policies.flatMap((p) => [...p.rules, p.match, p.exclude]),
      ...exceptions.map((e) => e.match),
      ...exceptions.map(useNeeds),
      // The owning team's members, for exceptions to a policy it keeps (match.ownedBy).
      ...exceptions.map(approverNeeds),
    ]),
    sharedChecks: numbered.sharedChecks,
  });
}
