"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.assembleBundle = assembleBundle;
const shapes_1 = require("../core/shapes");
const environments_1 = require("../engine/environments");
const environment_names_1 = require("../engine/environment-names");
const exceptions_by_policy_1 = require("../engine/exceptions-by-policy");
const waiver_blocker_1 = require("../engine/waiver-blocker");
const need_1 = require("../facts/need");
const policy_index_1 = require("../engine/policy-index");
/** An exception with maxUses needs its use count from the state store (docs/approvals.md). */
const useNeeds = (e) => ({
    needs: e.maxUses === undefined ? [] : [{ kind: 'exception-uses', exception: e.name }],
});
/**
 * The policies with the answer slot of each rule whose check other rules share: one slot per shared
 * check, numbered in bundle order, where a decision keeps its answer so it is asked once
 * (EvaluationContext.ruleAnswers); a check of one rule gets none. New rule and policy objects: the
 * parts are never written to, and slots given by an earlier assembly are numbered again.
 */
function withAnswerSlots(policies) {
    const uses = new Map();
    for (const policy of policies)
        for (const rule of policy.rules)
            uses.set(rule.check, (uses.get(rule.check) ?? 0) + 1);
    const slots = new Map();
    const slotOf = (check) => {
        if ((uses.get(check) ?? 0) < 2)
            return undefined;
        let slot = slots.get(check);
        if (slot === undefined)
            slots.set(check, (slot = slots.size));
        return slot;
    };
    const numbered = policies.map((policy) => (0, shapes_1.policyOf)({ ...policy, rules: policy.rules.map((rule) => (0, shapes_1.ruleOf)({ ...rule, answerSlot: slotOf(rule.check) })) }));
    return { policies: numbered, sharedChecks: slots.size };
}
/**
 * A bundle from its compiled parts, with everything derived from them at load: the index, the needs,
 * the lookups a decision reads. Read-only from here on: a decision never writes to it or fills a
 * cache keyed by it (docs/decisions/0004-per-evaluation-context.md).
 */
function assembleBundle(parts) {
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
        aliasesById: (0, environments_1.invertAliases)(parts.aliases),
        environmentNames: (0, environment_names_1.buildEnvironmentNames)(parts.aliases, policies.flatMap((p) => p.matchSpec?.environments ?? [])),
        exceptionsByPolicy: (0, exceptions_by_policy_1.exceptionsByPolicy)(exceptions),
        index: (0, policy_index_1.buildPolicyIndex)(policies),
        // Rules' needs, and the environment names scopes that list environments need.
        needs: (0, need_1.collectNeeds)([
            ...policies.flatMap((p) => [...p.rules, p.match, p.exclude]),
            ...exceptions.map((e) => e.match),
            ...exceptions.map(useNeeds),
            // The owning team's members, for exceptions to a policy it keeps (match.ownedBy).
            ...exceptions.map(waiver_blocker_1.approverNeeds),
        ]),
        sharedChecks: numbered.sharedChecks,
    });
}
//# sourceMappingURL=assemble-bundle.js.map