"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.exceptionsByPolicy = exceptionsByPolicy;
/** The exceptions grouped by the policy they name: once per bundle at load (PolicyBundle.exceptionsByPolicy), not per violation. */
function exceptionsByPolicy(exceptions) {
    const out = new Map();
    for (const e of exceptions) {
        const named = out.get(e.policy);
        if (named)
            named.push(e);
        else
            out.set(e.policy, [e]);
    }
    return out;
}
//# sourceMappingURL=exceptions-by-policy.js.map