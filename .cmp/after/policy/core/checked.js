"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.NOTHING_FOUND = void 0;
exports.findings = findings;
/** Nothing found, nothing read: shared, never written to (most checks of a decision find nothing). */
exports.NOTHING_FOUND = Object.freeze({ found: Object.freeze([]) });
/** A check that reads nothing but the run and its facts: what `judge` finds is all it says. */
function findings(judge) {
    return (input) => {
        const found = judge(input);
        return found.length === 0 ? exports.NOTHING_FOUND : { found };
    };
}
//# sourceMappingURL=checked.js.map