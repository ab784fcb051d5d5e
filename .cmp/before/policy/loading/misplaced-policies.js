"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.misplacedPolicies = misplacedPolicies;
exports.refusedWithMisplaced = refusedWithMisplaced;
const node_path_1 = require("node:path");
const policy_kind_of_1 = require("./policy-kind-of");
const policy_dir_listing_1 = require("./policy-dir-listing");
const read_policy_dir_1 = require("./read-policy-dir");
/** `prod.test.yaml` -> `prod.yaml` (the name it would load under). */
const renamed = (name) => name.replace(/\.(?:test|property)(\.ya?ml)$/i, '$1');
/**
 * The test suites (`*.test.yaml`, `*.test.yml`) and properties (`*.property.yaml`, `*.property.yml`),
 * never loaded as policies, below `dir` that hold a
 * policy-set document (`kind: Policy`, Exception, EnvironmentAliases, ExceptionSettings): one error
 * each, at the file, so a policy saved under a suite's name fails the load like a typo would instead
 * of being silently left out. Empty when the directory cannot be read (the loader says why). `from`:
 * the directory, or the listing the load read.
 */
function misplacedPolicies(from) {
    const listing = (0, policy_dir_listing_1.listingOf)(from);
    let suites;
    let properties;
    try {
        suites = (0, read_policy_dir_1.readPolicyDir)(listing, { tests: true });
        properties = (0, read_policy_dir_1.readPolicyDir)(listing, { properties: true });
    }
    catch {
        return [];
    }
    const what = new Map([
        ...suites.map((s) => [s, '*.test.yaml files are test suites']),
        ...properties.map((s) => [s, '*.property.yaml files are properties (docs/prove.md)']),
    ]);
    return [...what].flatMap(([source, files]) => {
        const kind = (0, policy_kind_of_1.policyKindOf)(source);
        if (kind === undefined)
            return [];
        const name = (0, node_path_1.basename)(source.file);
        const message = `${name} holds kind: ${kind}, but ${files} and are never loaded as policies: rename it (e.g. ${renamed(name)})`;
        return [{ file: source.file, line: 1, col: 1, path: '', message, severity: 'error' }];
    });
}
/**
 * What refuses a set holding misplaced policies: those errors first, then every problem of the load
 * of the other files (`loaded`; undefined when there were none to load, as "no policy files" would
 * only repeat the misplaced ones), so one attempt shows all that is to fix, in the service as in `validate`.
 */
function refusedWithMisplaced(misplaced, loaded) {
    return { ok: false, problems: [...misplaced, ...(loaded === undefined || loaded.ok ? [] : loaded.problems)] };
}
//# sourceMappingURL=misplaced-policies.js.map