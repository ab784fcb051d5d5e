import type { PolicyBundle } from '../policy/core/compiled';
import type { EvaluationContext } from '../policy/core/evaluation-context';
import { policyScope } from '../policy/engine/evaluate-policy';
import { collectNeeds, type Need } from '../policy/facts/need';
import { approverNeeds } from '../policy/engine/waiver-blocker';

/**
 * What placing a run in or out of each scope of the set reads (environment names for a scope that
 * lists environments, the members of each createdByTeams team, and of each team whose consent an
 * exception needs): needed for every run, since a scope judged without them could leave out a run
 * it holds. Once per proposed set.
 */
export function scopeNeeds(bundle: PolicyBundle): readonly Need[] {
  return collectNeeds([
    ...bundle.policies.flatMap((p) => [p.match, p.exclude]),
    ...bundle.exceptions.map((e) => e.match),
    // Whether an exception's approver is of the team owning the targets (match.ownedBy) reads its members.
    ...bundle.exceptions.map(approverNeeds),
  ]);
}

/**
 * What deciding this run under `bundle` reads from outside the payload: the scopes' needs, and
 * the needs of the rules of the policies that apply to the run. A policy the run is outside of (a
 * quota with `match: {teams: [DATA]}` and a run of another team) is skipped before its rules are
 * asked, so a run it does not apply to is replayed without its facts. Trusted only once the
 * scopes' needs are answered: they come first, so a run is never placed without them.
 */
export function runNeeds(bundle: PolicyBundle, scopes: readonly Need[], ctx: EvaluationContext): readonly Need[] {
  const applying: Array<{ needs?: readonly Need[] }> = [{ needs: scopes }];
  for (const position of bundle.index.candidates(ctx)) {
    const policy = bundle.policies[position];
    if (typeof policyScope(policy, ctx) !== 'string') applying.push(...policy.rules);
  }
  return collectNeeds(applying);
}
