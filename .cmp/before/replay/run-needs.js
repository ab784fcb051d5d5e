"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.scopeNeeds = scopeNeeds;
exports.runNeedsPlan = runNeedsPlan;
exports.runNeeds = runNeeds;
const evaluate_policy_1 = require("../policy/engine/evaluate-policy");
const need_1 = require("../policy/facts/need");
const waiver_blocker_1 = require("../policy/engine/waiver-blocker");
/** What placing a run in or out of each scope of the set reads (see runNeedsPlan). */
function scopeNeeds(bundle) {
    return (0, need_1.collectNeeds)([
        ...bundle.policies.flatMap((p) => [p.match, p.exclude]),
        ...bundle.exceptions.map((e) => e.match),
        // Whether an exception's approver is of the team owning the targets (match.ownedBy) reads its members.
        ...bundle.exceptions.map(waiver_blocker_1.approverNeeds),
    ]);
}
const keyed = (needs) => needs.map((need) => ({ key: (0, need_1.needKey)(need), need }));
/**
 * The plan of a proposed set: the needs of its scopes (environment names for a scope that lists
 * environments, the members of each createdByTeams team, and of each team whose consent an
 * exception needs), needed for every run, since a scope judged without them could leave out a run
 * it holds; and each policy's rules' needs.
 */
function runNeedsPlan(bundle) {
    const scopes = keyed(scopeNeeds(bundle));
    const byPolicy = bundle.policies.map((p) => keyed((0, need_1.collectNeeds)(p.rules)));
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
function runNeeds(bundle, plan, ctx) {
    const found = new Map(plan.scopes.map((n) => [n.key, n.need]));
    for (const position of bundle.index.candidates(ctx)) {
        const own = plan.byPolicy[position];
        if (own.length === 0 || typeof (0, evaluate_policy_1.policyScope)(bundle.policies[position], ctx) === 'string')
            continue;
        for (const { key, need } of own)
            if (!found.has(key))
                found.set(key, need);
    }
    return [...found.values()];
}
//# sourceMappingURL=run-needs.js.map