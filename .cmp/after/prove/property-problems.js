"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.propertyProblems = propertyProblems;
const policy_kind_of_1 = require("../policy/loading/policy-kind-of");
const policy_references_1 = require("../policy/loading/policy-references");
const read_policy_dir_1 = require("../policy/loading/read-policy-dir");
const property_file_1 = require("./property-file");
const property_names_1 = require("./property-names");
/**
 * What `validate` says about the properties below `dir` (`*.property.yaml`, docs/prove.md): each
 * that no longer parses or compiles is an error at its file and line, as a policy's would be; an
 * environment a property names that the set (`policySources`, as written) no longer knows is a
 * warning. A file holding a policy is left to misplacedPolicies (one error, not two); an unreadable
 * directory to the loader.
 */
function propertyProblems(dir, policySources, now) {
    let sources;
    try {
        sources = (0, read_policy_dir_1.readPolicyDir)(dir, { properties: true }).filter((s) => (0, policy_kind_of_1.policyKindOf)(s) === undefined);
    }
    catch {
        return [];
    }
    if (sources.length === 0)
        return [];
    const refs = (0, policy_references_1.policyReferences)(policySources);
    const aliases = {};
    for (const a of refs.aliases)
        aliases[a.alias] = [...(aliases[a.alias] ?? []), ...a.ids];
    const { properties, problems } = (0, property_file_1.propertiesOf)(sources, aliases, now);
    const known = [...refs.environments.map((e) => e.value), ...refs.aliases.flatMap((a) => [a.alias, ...a.ids])];
    return [...problems, ...(0, property_names_1.unknownEnvironmentWarnings)(properties, sources, known)];
}
//# sourceMappingURL=property-problems.js.map