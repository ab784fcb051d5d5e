"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.guardsRuns = void 0;
exports.guardView = guardView;
const assemble_bundle_1 = require("../policy/compile/assemble-bundle");
const policy_texts_1 = require("../policy/engine/policy-texts");
const shapes_1 = require("../policy/core/shapes");
const while_running_1 = require("../policy/compile/while-running");
/** The policy with only its rules that can change during a run (a new object: the bundle's is never written to). */
function guardedPart(policy) {
    const rules = policy.rules.filter(while_running_1.isReJudged);
    return (0, shapes_1.policyOf)({ ...policy, rules, modifications: [], passed: (0, policy_texts_1.passOutcome)({ ...policy, rules }) });
}
/**
 * What is judged again while a run is in progress (docs/guard.md): the policies of `bundle` that
 * say `whileRunning:`, each with only its rules that can change during a run, with the bundle's
 * exceptions (one that expires no longer waives) and aliases. A bundle of its own, so the same pure
 * `decide` judges it, with its own index and needs (only the facts the guarded rules read are
 * gathered). Built once per policy set by whoever guards (run-guard.ts, eval).
 */
function guardView(bundle) {
    return (0, assemble_bundle_1.assembleBundle)({
        revision: bundle.revision,
        loadedAt: bundle.loadedAt,
        files: bundle.files,
        policies: bundle.policies.filter((p) => p.whileRunning !== undefined).map(guardedPart),
        exceptions: bundle.exceptions,
        aliases: bundle.aliases,
    });
}
/** Whether any policy of the set guards runs in progress. */
const guardsRuns = (bundle) => bundle.policies.some((p) => p.whileRunning !== undefined);
exports.guardsRuns = guardsRuns;
//# sourceMappingURL=guard-view.js.map