"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.docsOf = docsOf;
exports.readPolicySet = readPolicySet;
const node_fs_1 = require("node:fs");
const yaml_1 = require("yaml");
const load_error_1 = require("../policy/compile/load-error");
const load_policy_dir_1 = require("../policy/loading/load-policy-dir");
const read_policy_dir_1 = require("../policy/loading/read-policy-dir");
const served_bundle_1 = require("../policy/runtime/served-bundle");
const bad_input_error_1 = require("../common/bad-input-error");
function docsOf(texts) {
    const out = [];
    for (const text of texts)
        for (const doc of (0, yaml_1.parseAllDocuments)(text)) {
            const value = doc.toJS();
            if (value !== null && typeof value === 'object' && !Array.isArray(value))
                out.push(value);
        }
    return out;
}
/**
 * Loads `dir` as `eval` does (the loader, then the built-in policies) and reads its documents; a set
 * that does not load is a usage error listing its problems (nothing can be compared).
 */
function readPolicySet(dir, now, env) {
    if (!(0, node_fs_1.statSync)(dir, { throwIfNoEntry: false })?.isDirectory())
        throw new bad_input_error_1.BadInputError(`${dir} is not a directory: give the directory that holds the policy YAML files`);
    const loaded = (0, load_policy_dir_1.loadPolicyDir)(dir, now);
    if (!loaded.ok) {
        const errors = loaded.problems.filter((p) => p.severity === 'error').map(load_error_1.formatProblem);
        throw new bad_input_error_1.BadInputError(`the policy set in ${dir} is invalid, so nothing can be analysed:\n${errors.join('\n')}`);
    }
    const docs = docsOf((0, read_policy_dir_1.readPolicyDir)(dir).map((s) => s.text));
    const policies = new Map();
    const exceptions = [];
    const aliases = {};
    let exceptionSettings;
    for (const doc of docs) {
        if (doc.kind === 'Policy' && typeof doc.name === 'string')
            policies.set(doc.name, doc);
        else if (doc.kind === 'Exception')
            exceptions.push(doc);
        else if (doc.kind === 'ExceptionSettings')
            exceptionSettings = doc;
        else if (doc.kind === 'EnvironmentAliases' && doc.aliases && typeof doc.aliases === 'object')
            for (const [alias, ids] of Object.entries(doc.aliases))
                aliases[alias] = [...(aliases[alias] ?? []), ...(Array.isArray(ids) ? ids.map(String) : [])];
    }
    return { dir, bundle: (0, served_bundle_1.servedBundle)(loaded.bundle, env), policies, exceptions, aliases, exceptionSettings };
}
//# sourceMappingURL=policy-set.js.map