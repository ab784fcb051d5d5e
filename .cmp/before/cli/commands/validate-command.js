"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.validateCommand = validateCommand;
const node_fs_1 = require("node:fs");
const load_policy_dir_1 = require("../../policy/loading/load-policy-dir");
const written_documents_1 = require("../../policy/loading/written-documents");
const read_policy_dir_1 = require("../../policy/loading/read-policy-dir");
const ignored_policy_files_1 = require("../../policy/loading/ignored-policy-files");
const format_problems_1 = require("../format-problems");
const read_input_1 = require("../read-input");
const load_suites_1 = require("../suite/load-suites");
const suite_problems_1 = require("../suite/suite-problems");
const served_bundle_1 = require("../../policy/runtime/served-bundle");
const exit_codes_1 = require("../exit-codes");
const bad_input_error_1 = require("../../common/bad-input-error");
const signals_config_1 = require("../../signals/signals-config");
const unknown_signal_sources_1 = require("../../signals/unknown-signal-sources");
const property_problems_1 = require("../../prove/property-problems");
/**
 * `preflight-gate validate [dir]`: every policy file through the service's own loader (schema and
 * semantic checks), plus every test suite: its shape, the payload and signals files it reads (read
 * and checked as `test` reads them) and the policy names its expectations give; and every property
 * (`*.property.yaml`): one that no longer parses or compiles is an error at its line (docs/prove.md).
 * Exit 1 on any error; warnings pass, unless --strict (then a warning is exit 1 too).
 */
function validateCommand(dirArg, opts, env, write) {
    const dir = (0, read_input_1.policyDirArg)(dirArg, env);
    const sourcesFile = opts.signalSources ?? (env.SIGNAL_SOURCES_FILE || undefined);
    if (opts.signalSources !== undefined)
        readableFlagFile('--signal-sources', opts.signalSources);
    const defined = sourcesFile === undefined ? undefined : (0, bad_input_error_1.readSettings)(() => (0, signals_config_1.signalSourceNames)(sourcesFile));
    const { loaded: result, sources } = (0, load_policy_dir_1.loadPolicyDirSources)(dir);
    const suites = (0, load_suites_1.loadSuites)(dir);
    const problems = [
        ...(result.ok ? result.warnings : result.problems),
        ...(0, suite_problems_1.suiteProblems)(suites, result.ok ? (0, served_bundle_1.servedBundle)(result.bundle, env) : undefined),
        ...(0, ignored_policy_files_1.ignoredFileProblems)(dir),
        ...(0, property_problems_1.propertyProblems)(dir, sources, new Date()),
        ...(result.ok && defined !== undefined && sourcesFile !== undefined
            ? (0, unknown_signal_sources_1.unknownSignalSources)(result.bundle, defined, sourcesFile, (0, written_documents_1.writtenDocuments)(sources))
            : []),
    ];
    const files = (0, read_policy_dir_1.readPolicyDir)(dir).length;
    const revision = result.ok ? result.bundle.revision : undefined;
    const policies = result.ok ? result.bundle.policies.length : undefined;
    const headline = `${dir}: ${files} policy file${files === 1 ? '' : 's'}${policies === undefined ? '' : `, ${policies} polic${policies === 1 ? 'y' : 'ies'}`}, ${suites.length} test suite${suites.length === 1 ? '' : 's'}${revision ? `, revision ${revision}` : ''}`;
    const strict = opts.strict === true;
    write((0, format_problems_1.formatProblems)(problems, opts.format, { headline, dir, revision, files, policies, suites: suites.length }, strict));
    return (0, format_problems_1.problemsFail)(problems, strict) ? exit_codes_1.EXIT.failed : exit_codes_1.EXIT.ok;
}
/** A file a flag names that cannot be read is a usage error naming the flag (not the variable it stands in for). */
function readableFlagFile(flag, file) {
    try {
        (0, node_fs_1.readFileSync)(file);
    }
    catch (err) {
        throw new bad_input_error_1.BadInputError(`${flag}: cannot read ${file} (${err.message})`);
    }
}
//# sourceMappingURL=validate-command.js.map