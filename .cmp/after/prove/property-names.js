"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.unknownEnvironmentWarnings = unknownEnvironmentWarnings;
const near_name_1 = require("../policy/compile/near-name");
const yaml_source_1 = require("../policy/compile/yaml-source");
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v) => (Array.isArray(v) ? v.filter((s) => typeof s === 'string') : []);
/** Where a property's `never:` names environments: its scope and its `environments` rules. */
function environmentPaths(never) {
    const out = [];
    for (const scope of ['match', 'exclude'])
        if (isObject(never[scope]))
            strings(never[scope].environments).forEach((value, i) => out.push({ value, path: ['never', scope, 'environments', i] }));
    (Array.isArray(never.rules) ? never.rules : []).forEach((rule, r) => {
        if (isObject(rule) && isObject(rule.environments))
            for (const list of ['blocked', 'allowed'])
                strings(rule.environments[list]).forEach((value, i) => out.push({ value, path: ['never', 'rules', r, 'environments', list, i] }));
    });
    return out;
}
/**
 * A warning for each environment a property names that the policy set does not (`known`: every
 * environment name, id and alias its policies, exceptions and aliases write) but that is one
 * keystroke from one it does: a property about `payments-prdo` describes other runs than meant,
 * and may be proven of runs nobody makes.
 */
function unknownEnvironmentWarnings(properties, sources, known) {
    const names = new Map(known.map((k) => [k.toLowerCase(), k]));
    const out = [];
    for (const source of sources) {
        const mine = properties.filter((p) => p.file === source.file);
        if (mine.length === 0)
            continue;
        for (const doc of (0, yaml_source_1.parseYamlSource)(source).documents) {
            const value = doc.value;
            if (!isObject(value) || !isObject(value.never) || !mine.some((p) => p.name === value.name))
                continue;
            for (const { value: env, path } of environmentPaths(value.never)) {
                if (names.has(env.toLowerCase()))
                    continue;
                const meant = [...names.values()].find((k) => (0, near_name_1.looksLikeTypo)(env, k));
                if (meant === undefined)
                    continue;
                const text = path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
                out.push({
                    file: source.file,
                    ...doc.locate(path),
                    path: text,
                    message: `property ${String(value.name)}: environment "${env}" is named by no policy, exception or alias of the set: did you mean "${meant}"? (a misspelt environment describes other runs than meant)`,
                    severity: 'warning',
                });
            }
        }
    }
    return out;
}
//# sourceMappingURL=property-names.js.map