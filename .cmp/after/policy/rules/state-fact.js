"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.iso = exports.notLoaded = void 0;
exports.stateFact = stateFact;
/** A part of the state facts gathered for this decision; undefined when it was not (the rule cannot decide). */
function stateFact(ctx, key) {
    return ctx.facts.state?.[key];
}
const notLoaded = (what) => ({
    reason: `cannot decide: the ${what} state was not loaded`,
    status: 'undecidable',
});
exports.notLoaded = notLoaded;
const iso = (ms) => new Date(ms).toISOString();
exports.iso = iso;
//# sourceMappingURL=state-fact.js.map