"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.compileOwnership = compileOwnership;
exports.namedTargets = namedTargets;
const memo_1 = require("../core/memo");
const targeted_step_1 = require("../core/targeted-step");
const step_text_1 = require("./step-text");
/** At most this many owned targets are named in a denial, then a count. */
const MAX_NAMED = 5;
const OWNERSHIPS = (0, memo_1.memoKey)("what the run reaches of each ownedBy scope's targets");
/** A step that does not list every target it expects, named as the reason says it. */
function unlisted(ctx) {
    for (const ref of ctx.actionSteps) {
        if (!(0, targeted_step_1.isTargeted)(ref.step))
            continue;
        const listed = Array.isArray(ref.step.targetExecutions) ? ref.step.targetExecutions.length : 0;
        const expected = ref.step.totalTargetCount;
        if ((listed === 0 && expected !== 0) || (typeof expected === 'number' && expected > listed))
            return `${(0, step_text_1.stepName)(ref)} lists ${listed} of its ${expected ?? 'unknown number of'} targets`;
    }
    return undefined;
}
function ownershipOf(spec, isOwner, ctx) {
    const owned = new Set();
    const seen = new Set();
    let missing;
    for (const ref of ctx.actionSteps) {
        if (!(0, targeted_step_1.isTargeted)(ref.step) || !Array.isArray(ref.step.targetExecutions))
            continue;
        for (const target of ref.step.targetExecutions) {
            const name = typeof target.name === 'string' && target.name !== '' ? target.name : '(unnamed target)';
            let carries = false;
            for (const a of target.attributes ?? []) {
                if (a.key !== spec.attribute || typeof a.value !== 'string')
                    continue;
                carries = true;
                seen.add(a.value);
                if (isOwner(a.value))
                    owned.add(`${name} (${spec.attribute}=${a.value})`);
            }
            if (!carries && spec.whenMissing !== 'notOwned')
                missing ??= `target ${name} of ${(0, step_text_1.stepName)(ref)} carries no ${spec.attribute} (Steadybit sends only the attributes in the preflight webhook's targetAttributeIncludes; include ${spec.attribute} there)`;
        }
    }
    const gap = owned.size > 0 ? undefined : (unlisted(ctx) ?? missing);
    return {
        owned: [...owned],
        seen: [...seen],
        ...(gap === undefined
            ? {}
            : { unknown: `${gap}, so whether the run reaches targets owned by team ${spec.team} is not known` }),
    };
}
/**
 * What the run reaches of the team's targets, judged once per decision for each distinct spec
 * (policies repeating one ownedBy share the answer). A target is owned when its `attribute` is the
 * team key (ignoring case) or, with `values`, one of them (exact); every value a target carries counts.
 */
function compileOwnership(spec) {
    const key = JSON.stringify([spec.team, spec.attribute, spec.values ?? null, spec.whenMissing ?? 'deny']);
    const values = spec.values === undefined ? undefined : new Set(spec.values);
    const team = spec.team.toUpperCase();
    const isOwner = values === undefined ? (v) => v.toUpperCase() === team : (v) => values.has(v);
    return (ctx) => {
        const known = ctx.memo.get(OWNERSHIPS, () => new Map());
        let ownership = known.get(key);
        if (ownership === undefined)
            known.set(key, (ownership = ownershipOf(spec, isOwner, ctx)));
        return ownership;
    };
}
/** The owned targets as a denial lists them: at most MAX_NAMED, then how many more. */
function namedTargets(owned) {
    const more = owned.length - MAX_NAMED;
    return owned.slice(0, MAX_NAMED).join(', ') + (more > 0 ? `, and ${more} more` : '');
}
//# sourceMappingURL=owned-targets.js.map