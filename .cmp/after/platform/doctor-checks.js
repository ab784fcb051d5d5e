"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.doctorFindings = doctorFindings;
const glob_matcher_1 = require("../policy/core/glob-matcher");
const near_name_1 = require("../policy/compile/near-name");
/** Property data types `add_value_to_list_property` can add to (PropertyDefinitionAO.dataType). */
const LIST_TYPES = new Set(['STRING_LIST', 'ENUM_LIST', 'NUMBER_LIST', 'LINK_LIST']);
const finding = (at, message) => ({
    file: at.file,
    line: at.line,
    col: at.col,
    path: at.path,
    message,
    severity: 'error',
});
function environmentFindings(refs, facts) {
    const names = facts.environments.map((e) => e.name);
    const known = new Set([...names, ...facts.environments.map((e) => e.id)].map((v) => v.toLowerCase()));
    const aliases = new Set(refs.aliases.map((a) => a.alias.toLowerCase()));
    const out = [];
    for (const ref of refs.environments) {
        const v = ref.value.toLowerCase();
        if (known.has(v) || aliases.has(v))
            continue;
        const hint = (0, near_name_1.closest)(ref.value, names);
        out.push(finding(ref, `environment "${ref.value}" is not an environment in Steadybit, nor an environment id, nor an alias, so it never matches a run${hint ? `: did you mean "${hint}"?` : ` (Steadybit lists: ${names.join(', ') || 'none'})`}`));
    }
    for (const alias of refs.aliases) {
        for (const id of alias.ids.filter((i) => !known.has(i.toLowerCase()))) {
            out.push(finding(alias, `alias "${alias.alias}" lists "${id}", which is not an environment id (or name) in Steadybit`));
        }
    }
    return out;
}
function attributeFindings(refs, facts, webhookArg) {
    if (refs.attributes.length === 0)
        return [];
    const hooks = facts.webhooks.filter((w) => !webhookArg || w.id === webhookArg || w.name === webhookArg);
    const first = refs.attributes[0];
    if (hooks.length === 0) {
        const which = webhookArg ? `named or with the id "${webhookArg}"` : 'at all';
        return [
            finding(first, `no preflight webhook ${which} is configured in Steadybit, so no target attribute reaches the gate`),
        ];
    }
    const out = [];
    for (const hook of hooks) {
        const covered = (0, glob_matcher_1.compileGlobs)(hook.targetAttributeIncludes.length > 0 ? hook.targetAttributeIncludes : ['']);
        for (const ref of refs.attributes.filter((a) => !covered(a.key))) {
            out.push(finding(ref, `preflight webhook "${hook.name}" does not send attribute "${ref.key}": add it to its targetAttributeIncludes (${hook.targetAttributeIncludes.join(', ') || 'empty'}), or every target lacks it`));
        }
    }
    return out;
}
function propertyFindings(refs, facts) {
    const byKey = new Map(facts.properties.map((p) => [p.key, p]));
    const out = [];
    for (const ref of refs.properties) {
        const def = byKey.get(ref.propertyKey);
        if (!def) {
            const hint = (0, near_name_1.closest)(ref.propertyKey, [...byKey.keys()]);
            out.push(finding(ref, `property "${ref.propertyKey}" is not a property definition in Steadybit${hint ? `: did you mean "${hint}"?` : ''}`));
        }
        else if (ref.type === 'add_value_to_list_property' && !LIST_TYPES.has(def.dataType)) {
            out.push(finding(ref, `add_value_to_list_property needs a list property, but "${ref.propertyKey}" is ${def.dataType} (use set_property_value, or a *_LIST property)`));
        }
    }
    return out;
}
/** Every mismatch between the policy set and the platform, located in the policy files. */
function doctorFindings(refs, facts, opts = {}) {
    return [
        ...environmentFindings(refs, facts),
        ...attributeFindings(refs, facts, opts.webhook),
        ...propertyFindings(refs, facts),
    ];
}
//# sourceMappingURL=doctor-checks.js.map