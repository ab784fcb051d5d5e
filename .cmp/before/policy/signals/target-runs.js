"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.targetRuns = targetRuns;
const missing_data_1 = require("../engine/missing-data");
const attacked_values_1 = require("./attacked-values");
const listed = (values) => values.slice(0, 5).join(', ') + (values.length > 5 ? `, and ${values.length - 5} more` : '');
/** What keeps one attribute's values from being complete, as reasons; none with `whenMissing: allow`. */
function gaps(v, denyMissing) {
    if (!denyMissing)
        return [];
    const out = [];
    if (v.unlisted.length > 0)
        out.push(`cannot decide: ${v.unlisted.join(', ')} ${v.unlisted.length === 1 ? 'does' : 'do'} not list all ${v.unlisted.length === 1 ? 'its' : 'their'} targets, so the ${v.key} values the run acts on are not all known`);
    if (v.withoutCount > 0) {
        const more = v.withoutCount > v.without.length ? `, and ${v.withoutCount - v.without.length} more` : '';
        out.push(`cannot decide: ${v.withoutCount} target${v.withoutCount === 1 ? '' : 's'} of the run carr${v.withoutCount === 1 ? 'ies' : 'y'} no ${v.key} (${v.without.join(', ')}${more}), so the signal cannot be asked about ${v.withoutCount === 1 ? 'it' : 'them'}; ${(0, missing_data_1.attributeHint)([v.key])}`);
    }
    return out;
}
/**
 * Fans `runs` out over the distinct values of each attribute in `keys` (the `{{target.<key>}}`
 * placeholders of one rule): one set of values per combination. More combinations than
 * MAX_TARGET_VALUES ask nothing and cannot decide; an attribute no target carries asks nothing
 * (the run attacks no such service). Used alike before the decision (what to ask) and in it (what
 * was asked), so both fill the same queries.
 */
function targetRuns(runs, keys, valuesOf, denyMissing = true) {
    if (keys.length === 0)
        return { runs: [...runs], problems: [] };
    const all = keys.map(valuesOf);
    const problems = all.flatMap((v) => gaps(v, denyMissing));
    const combinations = all.reduce((n, v) => n * v.values.length, 1);
    if (combinations > attacked_values_1.MAX_TARGET_VALUES) {
        const what = all.map((v) => `${v.values.length} values of ${v.key} (${listed(v.values)})`).join(' and ');
        const much = all.length === 1 ? '' : `, ${combinations} combinations`;
        return {
            runs: [],
            problems: [
                ...problems,
                `cannot decide: the run acts on ${what}${much}, more than the ${attacked_values_1.MAX_TARGET_VALUES} one signal rule asks about (one query each); narrow the run or the rule (docs/attacked-services.md)`,
            ],
        };
    }
    let out = [...runs];
    for (const v of all)
        out = out.flatMap((run) => v.values.map((value) => ({ ...run, targets: { ...run.targets, [v.key]: value } })));
    return { runs: out, problems };
}
//# sourceMappingURL=target-runs.js.map