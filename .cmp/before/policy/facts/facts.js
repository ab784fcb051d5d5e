"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.NO_FACTS = void 0;
exports.doorFacts = doorFacts;
/** No facts at all: every rule that needs one cannot decide. */
exports.NO_FACTS = Object.freeze({});
/**
 * The facts as a run is judged at the door: a run not yet started has no history, so what the
 * guard keeps while a run is in progress (`signals.silentSince`, deadMan) is not read there. The
 * service never gathers it at the door; `eval`, suites and replay give their facts through this,
 * so a file written for a run in progress cannot decide a door case as if the run had started.
 */
function doorFacts(facts) {
    if (facts.signals?.silentSince === undefined)
        return facts;
    const { silentSince: _kept, ...signals } = facts.signals;
    return { ...facts, signals };
}
//# sourceMappingURL=facts.js.map