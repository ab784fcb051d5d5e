"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.readBasePolicies = readBasePolicies;
const node_fs_1 = require("node:fs");
const read_policy_dir_1 = require("../../policy/loading/read-policy-dir");
const yaml_source_1 = require("../../policy/compile/yaml-source");
const bad_input_error_1 = require("../../common/bad-input-error");
/**
 * Reads the base policy set of `--coverage-changed`: only what is written, nothing compiled, so a
 * base that no longer loads (the change fixes it) still compares. A file that is not valid YAML
 * contributes nothing: its policies' rules then count as added, so the check asks more, never less.
 * A directory that does not exist or cannot be read is a usage error.
 */
function readBasePolicies(dir) {
    const where = `--coverage-changed ${dir}`;
    try {
        if (!(0, node_fs_1.statSync)(dir).isDirectory())
            throw new bad_input_error_1.BadInputError(`${where}: not a directory (give the base policy directory)`);
    }
    catch (err) {
        if (err instanceof bad_input_error_1.BadInputError)
            throw err;
        const code = err.code;
        throw new bad_input_error_1.BadInputError(`${where}: ${code === 'ENOENT' ? 'does not exist' : `cannot be read: ${err.message}`}`);
    }
    let sources;
    try {
        sources = (0, read_policy_dir_1.readPolicyDir)(dir);
    }
    catch (err) {
        throw new bad_input_error_1.BadInputError(`${where}: cannot be read: ${err.message}`);
    }
    const rules = new Map();
    for (const source of sources)
        for (const doc of (0, yaml_source_1.parseYamlSource)(source).documents) {
            const v = doc.value;
            if (v?.kind !== 'Policy' || typeof v.name !== 'string' || rules.has(v.name))
                continue;
            rules.set(v.name, Array.isArray(v.rules) ? v.rules : []);
        }
    return { dir, rules };
}
//# sourceMappingURL=base-policies.js.map