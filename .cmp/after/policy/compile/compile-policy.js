"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MODIFICATION_PLACEHOLDERS = void 0;
exports.compilePolicy = compilePolicy;
const shapes_1 = require("../core/shapes");
const policy_texts_1 = require("../engine/policy-texts");
const compile_template_1 = require("../core/compile-template");
const shared_parts_1 = require("./shared-parts");
const while_running_1 = require("./while-running");
exports.MODIFICATION_PLACEHOLDERS = [
    'decisionId',
    'revision',
    'policy',
    'now',
    'experimentKey',
    'team',
    'environment',
    'executionId',
];
/** One Policy: each part the schema left intact compiled, its problems added to `problems`. */
function compilePolicy(doc, parsed, shared, problems) {
    if (problems.intact(['rules']) &&
        problems.intact(['modifications']) &&
        (doc.rules ?? []).length === 0 &&
        (doc.modifications ?? []).length === 0) {
        problems.add([], 'a policy needs rules (what it denies) or modifications (what it adds to allowed runs)');
    }
    const rules = (Array.isArray(doc.rules) ? doc.rules : []).map((rule, i) => {
        const [key, spec] = Object.entries(rule)[0] ?? [];
        return problems.part(['rules', i, key], () => (0, shared_parts_1.sharedRule)(key, spec, i, shared));
    });
    const match = problems.part(['match'], () => (0, shared_parts_1.sharedScope)(doc.match, false, shared));
    const exclude = problems.part(['exclude'], () => (0, shared_parts_1.sharedScope)(doc.exclude, true, shared));
    const message = doc.message === undefined ? undefined : problems.part(['message'], () => (0, compile_template_1.compileTemplate)(doc.message));
    const modifications = (Array.isArray(doc.modifications) ? doc.modifications : []).map((m, i) => problems.part(['modifications', i, 'value'], () => compileModification(m)));
    const whileRunning = doc.whileRunning === undefined || !problems.intact(['whileRunning']) || rules.some((r) => r === undefined)
        ? undefined
        : (0, while_running_1.compileWhileRunning)(doc.whileRunning, rules);
    if (typeof whileRunning === 'string')
        problems.add(['whileRunning'], whileRunning, 'error', 'key');
    if (doc.whileRunning === undefined)
        deadMenUnguarded(doc.rules, problems);
    if (problems.hasErrors)
        return undefined;
    const head = {
        name: doc.name,
        mode: doc.mode ?? 'enforce',
        priority: doc.priority ?? 100,
        source: { file: parsed.file, ...parsed.locate([]) },
        rules: rules,
    };
    const passed = (0, policy_texts_1.passOutcome)(head);
    return (0, shapes_1.policyOf)({
        name: head.name,
        description: doc.description,
        mode: head.mode,
        priority: head.priority,
        source: head.source,
        matchSpec: doc.match,
        match: match,
        exclude: exclude,
        rules: head.rules,
        message,
        modifications: modifications,
        passed,
        whileRunning: whileRunning,
    });
}
/** A `deadMan` watches a run while it is in progress: on a policy that does not guard runs it would never act. */
function deadMenUnguarded(rules, problems) {
    (Array.isArray(rules) ? rules : []).forEach((rule, i) => {
        const [key, spec] = Object.entries(rule ?? {})[0] ?? [];
        if (spec === null || typeof spec !== 'object' || !('deadMan' in spec))
            return;
        problems.add(['rules', i, key, 'deadMan'], 'deadMan watches a run while it is in progress: the policy needs whileRunning (docs/guard.md, "Dead man")', 'error', 'key');
    });
}
function compileModification(m) {
    if (typeof m.value !== 'string')
        return { type: m.type, propertyKey: m.propertyKey, constant: m.value, render: () => m.value };
    const template = (0, compile_template_1.compileTemplate)(m.value, exports.MODIFICATION_PLACEHOLDERS);
    const constant = /\{\{/.test(m.value) ? undefined : m.value;
    return { type: m.type, propertyKey: m.propertyKey, constant, render: (values) => template(values) };
}
//# sourceMappingURL=compile-policy.js.map