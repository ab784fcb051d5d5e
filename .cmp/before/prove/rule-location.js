"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.pathSegments = void 0;
exports.ruleLocation = ruleLocation;
const node_fs_1 = require("node:fs");
const built_in_policies_1 = require("../policy/compile/built-in-policies");
const yaml_source_1 = require("../policy/compile/yaml-source");
/** `rules[0].timeWindow` -> ['rules', 0, 'timeWindow']. */
const pathSegments = (path) => [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] === undefined ? m[1] : Number(m[2])));
exports.pathSegments = pathSegments;
/**
 * Where a rule of the set is written (`rules[2]` of policy `production-guardrails`: its file, line and
 * column), else where its policy is; undefined when the set has no such policy or it is built in
 * (a pull request's annotation then names no file).
 */
function ruleLocation(set, rule) {
    const policy = set.bundle.policies.find((p) => p.name === rule.policy);
    if (policy === undefined || policy.source.file === built_in_policies_1.BUILT_IN_FILE)
        return undefined;
    if (rule.path === undefined)
        return policy.source;
    let text;
    try {
        text = (0, node_fs_1.readFileSync)(policy.source.file, 'utf8');
    }
    catch {
        return policy.source; // the file changed under us: the policy's line is what is known
    }
    const doc = (0, yaml_source_1.parseYamlSource)({ file: policy.source.file, text }).documents.find((d) => {
        const v = d.value;
        return v?.kind === 'Policy' && v.name === rule.policy;
    });
    const segments = (0, exports.pathSegments)(rule.path);
    // The rule's entry (`- environments: ...`), not its spec: where the reviewer reads the rule.
    const at = doc?.locate(segments.slice(0, 2), 'value');
    return at ? { file: policy.source.file, ...at } : policy.source;
}
//# sourceMappingURL=rule-location.js.map