"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.USES_DEPENDENCE_RULE = void 0;
exports.usesDependence = usesDependence;
const decide_1 = require("../policy/engine/decide");
/** How replay tells that a run's answer depended on an exception's use count: said in its reports. */
exports.USES_DEPENDENCE_RULE = 'each run a policy with a maxUses exception decided is decided twice more, once with every such exception unused (count 0) and once with every one used up (count = maxUses); a run allowed in one and denied in the other depended on a use count (the comparison above used the counts the archive recorded)';
/** The maxUses exceptions of the policies that decided the run (waived, or denied while one could have waived). */
function countedExceptions(bundle, decision) {
    const names = new Set();
    for (const r of decision.results) {
        if (r.result !== 'deny' && r.exception === undefined)
            continue;
        for (const e of bundle.exceptionsByPolicy.get(r.policy) ?? [])
            if (e.maxUses !== undefined)
                names.add(e.name);
    }
    return [...names];
}
/**
 * Whether the run's answer under `bundle` turns on a use count (USES_DEPENDENCE_RULE), or undefined
 * when it does not. Only runs with a maxUses exception in reach are decided again.
 */
function usesDependence(bundle, payload, facts, decision, opts) {
    const names = countedExceptions(bundle, decision);
    if (names.length === 0)
        return undefined;
    const withUses = (uses) => (0, decide_1.decide)(bundle, payload, { ...facts, state: { ...facts.state, exceptionUses: uses } }, opts.now, {
        decisionId: opts.decisionId,
    }).allowed;
    const max = Object.fromEntries(bundle.exceptions.filter((e) => names.includes(e.name)).map((e) => [e.name, e.maxUses]));
    if (withUses({}) === withUses(max))
        return undefined;
    const recorded = facts.state?.exceptionUses ?? {};
    return {
        exceptions: names,
        usesRecorded: Object.fromEntries(names.map((n) => [n, recorded[n] ?? 0])),
        allowed: decision.allowed,
    };
}
//# sourceMappingURL=uses-dependence.js.map