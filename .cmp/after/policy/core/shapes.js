"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.policyOf = policyOf;
exports.ruleOf = ruleOf;
// A decision reads the same fields of dozens of policies and rules. Written as one literal with
// every field, in one order, wherever they are made (compiled, built in, numbered by
// assembleBundle, cut down for the guard), they share one hidden class and those reads stay
// monomorphic. A spread copy gets a class of its own: 991 classes for 1,000 policies made a full
// scan four times slower, and 14,950 for 14,957 rules sent every rule read megamorphic (Node 20).
// On Node 26.12.1 spread copies measured 0.90-1.10x in a full scan of 1,000 policies, on a loaded
// machine: not yet shown to pay, not yet shown not to (docs/decisions/0025-engine-comments-on-node-26.md).
/** The policy as one literal with every field, in the one order. */
function policyOf(p) {
    return {
        name: p.name,
        description: p.description,
        mode: p.mode,
        priority: p.priority,
        source: p.source,
        matchSpec: p.matchSpec,
        match: p.match,
        exclude: p.exclude,
        rules: p.rules,
        message: p.message,
        modifications: p.modifications,
        passed: p.passed,
        whileRunning: p.whileRunning,
    };
}
/** The rule as one literal with every field, in the one order. */
function ruleOf(r) {
    return {
        kind: r.kind,
        path: r.path,
        check: r.check,
        needs: r.needs,
        staleParts: r.staleParts,
        answerSlot: r.answerSlot,
        deadMan: r.deadMan,
    };
}
//# sourceMappingURL=shapes.js.map