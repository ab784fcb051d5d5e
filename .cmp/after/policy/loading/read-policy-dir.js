"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.readPolicyDir = readPolicyDir;
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const policy_dir_listing_1 = require("./policy-dir-listing");
const policy_kind_of_1 = require("./policy-kind-of");
const suite_read_files_1 = require("./suite-read-files");
/**
 * Reads every policy file below `dir` (sorted, recursive), or with `tests` every test suite, or with
 * `properties` every property file (`*.property.yaml`, docs/prove.md: never a policy). A YAML
 * file a test suite reads (`payloadFile: testdata/run.yaml`, a `signalsFile`) is the suite's data,
 * not a policy, unless it declares a policy-set kind: a suite naming a policy file (by mistake or
 * not) never takes that policy out of the set. Hidden entries are skipped (policy-dir-listing.ts).
 * `from` is the directory, or its listing when the caller reads the directory for other checks
 * too. Throws when the directory cannot be read, or holds a link to nothing.
 */
function readPolicyDir(from, opts = {}) {
    const listing = (0, policy_dir_listing_1.listingOf)(from);
    if (listing.error)
        throw listing.error;
    const { policies: policyPaths, suites: suitePaths, properties: propertyPaths } = listing;
    // Only what is returned is read (the suites always: they say which files are their data).
    const read = ({ file, key }) => ({ file, key, text: (0, node_fs_1.readFileSync)(file, 'utf8') });
    if (opts.properties)
        return propertyPaths.map(read);
    const suites = suitePaths.map(read);
    if (opts.tests)
        return suites;
    const policies = policyPaths.map(read);
    const data = (0, suite_read_files_1.suiteReadFiles)(suites);
    if (data.size === 0)
        return policies;
    return policies.filter((p) => !data.has((0, node_path_1.resolve)(p.file)) || (0, policy_kind_of_1.policyKindOf)(p) !== undefined);
}
//# sourceMappingURL=read-policy-dir.js.map