import type { PolicyBundle } from '../policy/core/compiled';
import type { EvaluationContext } from '../policy/core/evaluation-context';
import { policyScope } from '../policy/engine/evaluate-policy';
import { collectNeeds, needKey, type Need } from '../policy/facts/need';
import { approverNeeds } from '../policy/engine/waiver-blocker';

/** A need with its key (the sameness collectNeeds uses), computed once per proposed set. */
interface KeyedNeed {
  key: string;
  need: Need;
}

/** What runNeeds reads of a proposed set, worked out once per set: replay asks it for every record. */
export interface RunNeedsPlan {
  /** What placing a run in or out of each scope reads: needed by every run. */
  scopes: readonly KeyedNeed[];
  /** By policy position, its rules' needs, each once; empty for a policy whose rules read nothing (most). */
  byPolicy: ReadonlyArray<readonly KeyedNeed[]>;
  /** Every need of scopes and rules, each once: what runNeeds gives for any run is part of it. */
  all: readonly Need[];
}

/** What placing a run in or out of each scope of the set reads (see runNeedsPlan). */
export function scopeNeeds(bundle: PolicyBundle): readonly Need[] {
  return collectNeeds([
    ...bundle.policies.flatMap((p) => [p.match, p.exclude]),
    ...bundle.exceptions.map((e) => e.match),
    // Whether an exception's approver is of the team owning the targets (match.ownedBy) reads its members.
    ...bundle.exceptions.map(approverNeeds),
  ]);
}

const keyed = (needs: readonly Need[]): KeyedNeed[] => needs.map((need) => ({ key: needKey(need), need }));

/**
 * The plan of a proposed set: the needs of its scopes (environment names for a scope that lists
 * environments, the members of each createdByTeams team, and of each team whose consent an
 * exception needs), needed for every run, since a scope judged without them could leave out a run
 * it holds; and each policy's rules' needs.
 */
export function runNeedsPlan(bundle: PolicyBundle): RunNeedsPlan {
  const scopes = keyed(scopeNeeds(bundle));
  const byPolicy = bundle.policies.map((p) => keyed(collectNeeds(p.rules)));
  const all = new Map([...scopes, ...byPolicy.flat()].map((n) => [n.key, n.need]));
  return { scopes, byPolicy, all: [...all.values()] };
}

/**
 * What deciding this run under `bundle` reads from outside the payload, each need once in the order
 * first met: the scopes' needs, and the needs of the rules of the policies that apply to the run. A
 * policy the run is outside of (a quota with `match: {teams: [DATA]}` and a run of another team) is
 * skipped before its rules are asked, so a run it does not apply to is replayed without its facts;
 * a policy whose rules read nothing adds nothing, so its scope is not judged here at all. Trusted
 * only once the scopes' needs are answered: they come first, so a run is never placed without them.
 */
export function runNeeds(bundle: PolicyBundle, plan: RunNeedsPlan, ctx: EvaluationContext): Need[] {
  const found = new Map(plan.scopes.map((n) => [n.key, n.need]));
  for (const position of bundle.index.candidates(ctx)) {
    const own = plan.byPolicy[position];
    if (own.length === 0 || typeof policyScope(bundle.policies[position], ctx) === 'string') continue;
    for (const { key, need } of own) if (!found.has(key)) found.set(key, need);
  }
  return [...found.values()];
}
