"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.loadPolicyDir = loadPolicyDir;
exports.loadPolicyDirSources = loadPolicyDirSources;
const load_policy_texts_1 = require("./load-policy-texts");
const misplaced_policies_1 = require("./misplaced-policies");
const policy_dir_listing_1 = require("./policy-dir-listing");
const read_policy_dir_1 = require("./read-policy-dir");
/** Reads and loads a policy directory; an unreadable directory is a load problem, not a crash. */
function loadPolicyDir(dir, now = new Date()) {
    return loadPolicyDirSources(dir, now).loaded;
}
/** The same, with the files the set was loaded from (none when the directory cannot be read): what `test --coverage` locates rules in. */
function loadPolicyDirSources(dir, now = new Date()) {
    // One walk of the directory: the policies and the misplaced ones are read from it.
    const listing = (0, policy_dir_listing_1.listPolicyDir)(dir);
    let sources;
    try {
        sources = (0, read_policy_dir_1.readPolicyDir)(listing);
    }
    catch (err) {
        const message = `cannot read the policy directory: ${err.message} (set POLICY_DIR to a directory of policy YAML files)`;
        return {
            loaded: { ok: false, problems: [{ file: dir, line: 1, col: 1, path: '', message, severity: 'error' }] },
            sources: [],
        };
    }
    const loaded = (0, load_policy_texts_1.loadPolicySources)(sources, now, dir);
    const misplaced = (0, misplaced_policies_1.misplacedPolicies)(listing);
    if (misplaced.length === 0)
        return { loaded, sources };
    // A policy saved as a suite fails the set, as the service refuses it.
    return { loaded: (0, misplaced_policies_1.refusedWithMisplaced)(misplaced, sources.length === 0 ? undefined : loaded), sources };
}
//# sourceMappingURL=load-policy-dir.js.map