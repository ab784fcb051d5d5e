"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.loadPolicySources = loadPolicySources;
exports.loadPolicyTexts = loadPolicyTexts;
const load_bundle_1 = require("./load-bundle");
const policy_file_names_1 = require("./policy-file-names");
const problem = (file, message) => ({
    file,
    line: 1,
    col: 1,
    path: '',
    message,
    severity: 'error',
});
/**
 * Loads a set of policy files, whoever read them: `where` names the set in the message for an empty
 * one (a directory, or the playground's files). The one path from texts to a bundle, used by
 * loadPolicyDir (the service, the CLI) and by the playground page.
 */
function loadPolicySources(sources, now, where) {
    if (sources.length === 0)
        return {
            ok: false,
            problems: [problem(where, 'no policy files (*.yaml, *.yml) found: refusing to run with an empty policy set')],
        };
    return (0, load_bundle_1.loadBundle)(sources, now);
}
/**
 * Loads policy files given as texts by name (the playground, share links). Pure: no file system.
 * A name the service would not load as a policy file (not *.yaml / *.yml, or a *.test.yaml suite)
 * is an error naming it, never silently skipped.
 */
function loadPolicyTexts(texts, now) {
    const names = Object.keys(texts).sort();
    const misnamed = names.filter((name) => !policy_file_names_1.POLICY_FILE.test(name) || policy_file_names_1.TEST_FILE.test(name));
    if (misnamed.length > 0)
        return {
            ok: false,
            problems: misnamed.map((name) => problem(name, policy_file_names_1.TEST_FILE.test(name)
                ? 'a test suite (*.test.yaml), not a policy file: the service does not load it; rename it to <name>.yaml'
                : 'not a policy file name: the service loads *.yaml and *.yml files only; rename it to <name>.yaml')),
        };
    const sources = names.map((name) => ({ file: name, key: name, text: texts[name] }));
    return loadPolicySources(sources, now, '(policy files)');
}
//# sourceMappingURL=load-policy-texts.js.map