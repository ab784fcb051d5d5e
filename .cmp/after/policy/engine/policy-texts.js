"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.NO_MODIFICATIONS = void 0;
exports.passOutcome = passOutcome;
/** Why a policy passed: the rules it checked (`passed: rules[0].environments, rules[1].actions`). */
function passReason(policy) {
    return policy.rules.length === 0 ? 'no rules to check' : `passed: ${policy.rules.map((r) => r.path).join(', ')}`;
}
/** The outcome of every policy that contributes no modification: shared, never written to. */
exports.NO_MODIFICATIONS = Object.freeze([]);
/**
 * The outcome of a policy that applied and found nothing (its modifications, if any, are rendered
 * per decision): the same for every decision, so it is built when the policy is compiled and
 * shared by every decision (frozen: never written to).
 */
function passOutcome(policy) {
    const result = Object.freeze({
        policy: policy.name,
        mode: policy.mode,
        priority: policy.priority,
        result: 'pass',
        reasons: Object.freeze([passReason(policy)]),
        source: policy.source,
    });
    return Object.freeze({ result, modifications: exports.NO_MODIFICATIONS });
}
//# sourceMappingURL=policy-texts.js.map