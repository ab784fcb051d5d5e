"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.usesOf = usesOf;
exports.settleExceptionUses = settleExceptionUses;
const state_store_1 = require("../state/state-store");
/** The uses an allowed decision takes: one of each exception with maxUses that waived a policy of it. */
function usesOf(decision, bundle) {
    if (!decision.allowed)
        return [];
    // Asked of every allowed decision, and almost none is waived: nothing is built until one is.
    let waivedBy;
    for (const r of decision.results)
        if (r.exception !== undefined)
            (waivedBy ??= new Set()).add(r.exception);
    if (waivedBy === undefined)
        return [];
    return bundle.exceptions
        .filter((e) => e.maxUses !== undefined && waivedBy.has(e.name))
        .map((e) => ({ name: e.name, maxUses: e.maxUses }));
}
/** Attempts before giving up when other replicas keep using the same exceptions between our read and our take. */
const ATTEMPTS = 3;
/**
 * The decision once its exception uses are taken. A run that an exception with maxUses waived is
 * allowed only when its use is taken (atomically, across replicas); when another run took the last
 * one first, the run is decided again with the counts the store answered, and is then denied
 * saying the exception is used up (or waived by another exception, whose use is taken in turn).
 * A denied run takes nothing.
 */
async function settleExceptionUses(first, bundle, now, redecide, take) {
    let { decision, facts } = first;
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
        const uses = usesOf(decision, bundle);
        if (uses.length === 0)
            return { decision, facts };
        if (take === undefined)
            throw new state_store_1.StateUnavailableError('no state store counts exception uses, so an exception with maxUses cannot waive a run');
        const outcome = await take(uses, now);
        if (outcome.taken)
            return { decision, facts };
        const state = { ...facts.state, exceptionUses: { ...facts.state?.exceptionUses, ...outcome.counts } };
        facts = { ...facts, state };
        decision = redecide(facts);
    }
    throw new state_store_1.StateUnavailableError(`other runs kept using the same exceptions (${ATTEMPTS} attempts); try the run again`);
}
//# sourceMappingURL=settle-exception-uses.js.map