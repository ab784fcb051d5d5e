"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.attributeIncludes = attributeIncludes;
const yaml_source_1 = require("../policy/compile/yaml-source");
const policy_references_1 = require("../policy/loading/policy-references");
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Where a target attribute sits in the condition data: `[payload.]execution.steps.N.targetExecutions.N.attributes`. */
const ATTRIBUTE_PATH = ['execution', 'steps', '#', 'targetExecutions', '#', 'attributes'];
/** Every data path a json-logic expression names (`var`, `missing`, `missing_some`), relative ones included. */
function dataPaths(node, out = []) {
    if (Array.isArray(node))
        node.forEach((n) => dataPaths(n, out));
    if (!isObject(node))
        return out;
    for (const [op, raw] of Object.entries(node)) {
        const args = Array.isArray(raw) ? raw : [raw];
        if (op === 'var')
            out.push(String(args[0] ?? ''));
        else if (op === 'missing')
            args.flat().forEach((p) => out.push(String(p)));
        else if (op === 'missing_some')
            (Array.isArray(args[1]) ? args[1] : []).forEach((p) => out.push(String(p)));
        dataPaths(args, out);
    }
    return out;
}
/** A path that reads target attributes, or an object or list that holds them (then any key may be read). */
function reachesAttributes(path) {
    if (path === '' || path === 'payload')
        return true;
    const segments = path.replace(/^payload\./, '').split('.');
    if (segments.includes('attributes') || segments.includes('targetExecutions'))
        return true;
    return (segments.length <= ATTRIBUTE_PATH.length &&
        segments.every((s, i) => (ATTRIBUTE_PATH[i] === '#' ? /^\d+$/.test(s) : s === ATTRIBUTE_PATH[i])));
}
/** `condition` rules whose expression may read target attributes: their keys cannot be known from the policy. */
function opaqueConditions(sources) {
    const out = [];
    for (const source of sources) {
        for (const doc of (0, yaml_source_1.parseYamlSource)(source).documents) {
            const value = doc.value;
            if (!isObject(value) || value.kind !== 'Policy' || !Array.isArray(value.rules))
                continue;
            value.rules.forEach((rule, r) => {
                const condition = isObject(rule) && isObject(rule.condition) ? rule.condition : undefined;
                if (!condition || !dataPaths([condition.deny, condition.require]).some(reachesAttributes))
                    return;
                const at = doc.locate(['rules', r, 'condition']);
                out.push({
                    file: doc.file,
                    line: at.line,
                    col: at.col,
                    path: `rules[${r}].condition`,
                    severity: 'error',
                    message: 'this condition may read target attributes, and which keys cannot be known from its expression: name each with --attribute <key>, or send every attribute with --all-attributes',
                });
            });
        }
    }
    return out;
}
/**
 * The preflight webhook's `targetAttributeIncludes` for a policy set: every key a `targetAttributes`
 * rule reads plus `extra` (sorted, once each), never fewer than the policies read. A `condition`
 * that may read attributes makes the keys unknowable, a problem located in its file unless `extra`
 * names them. `all` gives `["*"]` (Steadybit then sends every attribute: larger requests).
 */
function attributeIncludes(sources, opts) {
    if (opts.all)
        return { ok: true, includes: ['*'] };
    const problems = opts.extra.length > 0 ? [] : opaqueConditions(sources);
    if (problems.length > 0)
        return { ok: false, problems };
    const keys = new Set([...(0, policy_references_1.policyReferences)(sources).attributes.map((a) => a.key), ...opts.extra]);
    return { ok: true, includes: [...keys].sort() };
}
//# sourceMappingURL=attribute-includes.js.map