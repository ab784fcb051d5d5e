"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.collapseAlternatives = collapseAlternatives;
/** Keywords that say a value has the wrong shape for a branch altogether (not a mistake inside it). */
const SHAPE_KEYWORDS = new Set(['type', 'const', 'enum']);
const isSummary = (e) => (e.keyword === 'anyOf' || e.keyword === 'oneOf') && (e.params.passingSchemas ?? null) === null;
/** `true`, `an object`, `one of a, b`: what a branch wanted, from the error that says its shape is wrong. */
function wanted(e) {
    if (e.keyword === 'const')
        return JSON.stringify(e.params.allowedValue);
    if (e.keyword === 'enum')
        return e.params.allowedValues.map((v) => JSON.stringify(v)).join(', ');
    if (e.keyword !== 'type')
        return undefined;
    const type = String(e.params.type);
    return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
/** The errors of one failed `anyOf`/`oneOf`, read as a person would want them. */
function explain(summary, branches) {
    const branchOf = (e) => e.schemaPath.slice(summary.schemaPath.length + 1).split('/')[0];
    const byBranch = new Map();
    for (const e of branches)
        byBranch.set(branchOf(e), [...(byBranch.get(branchOf(e)) ?? []), e]);
    const wrongShape = (errs) => errs.some((e) => e.instancePath === summary.instancePath && SHAPE_KEYWORDS.has(e.keyword));
    const near = [...byBranch.values()].filter((errs) => !wrongShape(errs));
    // The value has the shape of some branch: only what is wrong inside those branches is worth saying.
    if (near.length > 0)
        return near.flat();
    const shapeErrors = [...byBranch.values()].map((errs) => errs.find((e) => e.instancePath === summary.instancePath && SHAPE_KEYWORDS.has(e.keyword)));
    const shapes = [...new Set(shapeErrors.map(wanted))];
    if (shapes.some((s) => s === undefined))
        return [...branches, summary];
    // Every branch wants the same shape (objects told apart by their fields): its own error says it.
    if (shapes.length === 1)
        return [shapeErrors[0]];
    const got = summary.data === undefined ? '' : `, got ${JSON.stringify(summary.data)}`;
    return [{ ...summary, keyword: 'alternatives', message: `must be ${shapes.join(' or ')}${got}` }];
}
/**
 * A failed `anyOf`/`oneOf` without the noise of the branches the value was never meant for: ajv says
 * what each branch wanted, then "must match a schema in anyOf". When the value has the shape of a
 * branch (an object where `true` or an object is allowed), only that branch's errors stay
 * (`whileRunning.onCannotJudge: must be one of report, stop`); when it has the shape of none, one
 * error says what it may be (`must be true or an object, got "yes"`). Inner alternatives are read
 * first, as ajv reports them first.
 */
function collapseAlternatives(errors) {
    let out = [...errors];
    for (;;) {
        const at = out.findIndex(isSummary);
        if (at < 0)
            return out;
        const summary = out[at];
        const belongs = (e) => e.schemaPath.startsWith(`${summary.schemaPath}/`) &&
            (e.instancePath === summary.instancePath || e.instancePath.startsWith(`${summary.instancePath}/`));
        const branches = out.slice(0, at).filter(belongs);
        const explained = branches.length === 0 ? [{ ...summary, keyword: 'alternatives' }] : explain(summary, branches);
        const settled = explained.map((e) => (isSummary(e) ? { ...e, keyword: 'alternatives' } : e));
        out = [...out.slice(0, at).filter((e) => !branches.includes(e)), ...settled, ...out.slice(at + 1)];
    }
}
//# sourceMappingURL=collapse-alternatives.js.map