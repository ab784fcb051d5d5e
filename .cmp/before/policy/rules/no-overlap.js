"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.noOverlapRule = void 0;
const rule_kind_1 = require("../core/rule-kind");
const checked_1 = require("../core/checked");
const run_footprint_1 = require("../engine/run-footprint");
const step_text_1 = require("../engine/step-text");
const state_fact_1 = require("./state-fact");
/** At most this many runs in the way are named, each with at most this many shared targets. */
const MAX_RUNS = 3;
const MAX_SHARED = 3;
const NO_IDS = Object.freeze([]);
/** The ids listed under one key of the fact (never a key Object.prototype has). */
const idsAt = (byKey, key) => byKey !== undefined && Object.hasOwn(byKey, key) ? byKey[key] : NO_IDS;
const isEmpty = (byKey) => {
    for (const key in byKey)
        if (Object.hasOwn(byKey, key))
            return false;
    return true;
};
/** A step that does not list all its targets: what it shares with runs in progress is not known. */
const cannotRuleOut = ({ ref, listed, expected }) => ({
    reason: `cannot decide: ${(0, step_text_1.stepName)(ref)} lists ${listed} of its ${expected ?? 'unknown number of'} targets, so what it shares with runs in progress is not known`,
    step: ref,
    status: 'undecidable',
});
function describeRun(id, facts) {
    const run = Object.hasOwn(facts.runs, id) ? facts.runs[id] : {};
    const who = [
        run.experimentKey && `experiment ${run.experimentKey}`,
        `team ${run.team ?? 'unknown'}`,
        run.since && `since ${run.since}`,
    ].filter(Boolean);
    return `run ${id} (${who.join(', ')})`;
}
const listed = (shared) => shared.slice(0, MAX_SHARED).join(', ') +
    (shared.length > MAX_SHARED ? `, and ${shared.length - MAX_SHARED} more` : '');
/**
 * `- noOverlap: {by: [host.hostname, k8s.node.name]}`: no run while another run in progress, of any
 * team, acts on the same target, or on targets sharing a value of one of the `by` attribute keys
 * (the same host, node, zone, deployment...). The runs in progress are the guard's: every run the
 * gate allowed until its end event, the Platform API or EXECUTION_TTL_SECONDS ends it. The run
 * being preflighted never counts against itself.
 */
exports.noOverlapRule = (0, rule_kind_1.defineRule)({
    key: 'noOverlap',
    description: 'Deny a run whose targets overlap those of a run in progress (any team): the same target, or the same value of the attribute keys in `by`.',
    schema: {
        type: 'object',
        additionalProperties: false,
        properties: {
            by: {
                type: 'array',
                uniqueItems: true,
                maxItems: 20,
                items: { type: 'string', minLength: 1, syntax: 'trimmed' },
                description: 'Attribute keys whose shared value is an overlap, e.g. [host.hostname, k8s.node.name, k8s.zone, k8s.deployment]. The same target (type and name) always is.',
            },
        },
    },
    compile(spec) {
        const by = spec.by ?? [];
        const needs = [
            { kind: 'in-progress' },
            ...by.map((attribute) => ({ kind: 'in-progress', attribute })),
        ];
        return {
            needs,
            check: (0, checked_1.findings)(({ ctx }) => {
                const facts = (0, state_fact_1.stateFact)(ctx, 'inProgress');
                if (!facts)
                    return [(0, state_fact_1.notLoaded)('runs in progress')];
                // The service gathers only what this run shares: usually nothing, and then nothing to compare.
                const nothingShared = isEmpty(facts.targets) && by.every((key) => isEmpty(facts.attributes[key]));
                if (nothingShared)
                    return (0, run_footprint_1.unlistedSteps)(ctx.execution.steps).map(cannotRuleOut);
                const footprint = (0, run_footprint_1.runFootprint)(ctx.execution.steps, by);
                const self = ctx.execution.id === undefined ? undefined : String(ctx.execution.id);
                // What each other run shares with this one, in the order met.
                const shared = new Map();
                const note = (ids, what) => {
                    for (const id of ids) {
                        if (id === self)
                            continue;
                        const list = shared.get(id);
                        if (list === undefined)
                            shared.set(id, [what]);
                        else
                            list.push(what);
                    }
                };
                for (const target of footprint.targets)
                    note(idsAt(facts.targets, target), `target ${target}`);
                for (const key of by) {
                    const byValue = Object.hasOwn(facts.attributes, key) ? facts.attributes[key] : undefined;
                    for (const value of footprint.attributes.get(key) ?? [])
                        note(idsAt(byValue, value), `${key}=${value}`);
                }
                const out = [];
                if (shared.size > 0) {
                    // One finding: the runs in the way (a few), each with what it shares (a few).
                    const named = [...shared]
                        .slice(0, MAX_RUNS)
                        .map(([id, what]) => `${describeRun(id, facts)} on ${listed(what)}`);
                    const more = shared.size > MAX_RUNS ? `; and ${shared.size - MAX_RUNS} more runs` : '';
                    out.push({
                        reason: `${shared.size === 1 ? 'a run' : `${shared.size} runs`} in progress share${shared.size === 1 ? 's' : ''} targets with this run: ${named.join('; ')}${more}`,
                        value: [...shared.keys()].slice(0, MAX_RUNS).join(', '),
                    });
                }
                out.push(...footprint.unlisted.map(cannotRuleOut));
                return out;
            }),
        };
    },
});
//# sourceMappingURL=no-overlap.js.map