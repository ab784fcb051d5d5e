"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.decide = decide;
const combine_1 = require("./combine");
const connect_probe_1 = require("./connect-probe");
const create_context_1 = require("./create-context");
const evaluation_context_1 = require("../core/evaluation-context");
const evaluate_policy_1 = require("./evaluate-policy");
/**
 * The decision on one preflight payload: every policy whose match scope may include the run is
 * evaluated (found through the bundle's index, in bundle order), any enforcing denial denies.
 * Pure and synchronous: the bundle, payload, facts (gathered before, factGatherer) and `now` fully
 * determine the answer, so a recorded decision can be replayed. The bundle is only read; what the
 * decision computes lives in its own EvaluationContext.
 */
function decide(bundle, payload, facts, now, opts) {
    const ctx = (0, create_context_1.createContext)(bundle, payload, facts, now, opts.decisionId);
    const outcomes = [];
    if (opts.fullScan) {
        for (const policy of bundle.policies)
            outcomes.push((0, evaluate_policy_1.evaluatePolicy)(policy, ctx, bundle.exceptionsByPolicy));
    }
    else {
        for (const position of bundle.index.candidates(ctx))
            outcomes.push((0, evaluate_policy_1.evaluatePolicy)(bundle.policies[position], ctx, bundle.exceptionsByPolicy));
    }
    const outOfScope = bundle.policies.length - outcomes.length;
    const decision = (0, combine_1.combine)(outcomes, {
        id: opts.decisionId,
        revision: bundle.revision,
        evaluatedAt: (0, evaluation_context_1.nowText)(ctx),
        outOfScope,
    });
    // A `connect --probe` run is denied by design, naming its nonce (connect-probe.ts).
    return (0, connect_probe_1.answerProbe)(payload.execution, decision);
}
//# sourceMappingURL=decide.js.map