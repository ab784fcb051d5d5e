"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.policiesFromFiles = exports.BUILT_IN_FILE = exports.EMERGENCY_STOP_POLICY = void 0;
exports.builtInNames = builtInNames;
exports.emergencyStopSetting = emergencyStopSetting;
exports.emergencyStopPolicy = emergencyStopPolicy;
exports.builtInPolicies = builtInPolicies;
exports.withBuiltIns = withBuiltIns;
const env_values_1 = require("../../common/env-values");
const assemble_bundle_1 = require("./assemble-bundle");
const policy_texts_1 = require("../engine/policy-texts");
const shapes_1 = require("../core/shapes");
const emergency_stop_1 = require("../rules/emergency-stop");
const scope_1 = require("../engine/scope");
/** Not a valid policy name in YAML, so no file can shadow it and no Exception can waive it. */
exports.EMERGENCY_STOP_POLICY = 'emergency-stop (built-in)';
/** The `file` of a built-in policy's source. */
exports.BUILT_IN_FILE = '(built-in)';
/** The names of the bundle's built-in policies (those withBuiltIns added): they come first, so only they are read. */
function builtInNames(bundle) {
    const names = [];
    for (const p of bundle.policies) {
        if (p.source.file !== exports.BUILT_IN_FILE)
            break;
        names.push(p.name);
    }
    return names;
}
/** How many of the bundle's policies were loaded from files (all but the built-in ones). */
const policiesFromFiles = (bundle) => bundle.policies.length - builtInNames(bundle).length;
exports.policiesFromFiles = policiesFromFiles;
/** EMERGENCY_STOP_POLICY, read the same way by the service and the CLI; a bad value is a ConfigError naming it. */
function emergencyStopSetting(env) {
    return (0, env_values_1.envOneOf)(env, 'EMERGENCY_STOP_POLICY', ['enforce', 'off'], 'enforce');
}
/** Denies every run while the emergency stop is engaged; in force unless EMERGENCY_STOP_POLICY=off. */
function emergencyStopPolicy() {
    const path = 'rules[0].emergencyStop';
    const head = {
        name: exports.EMERGENCY_STOP_POLICY,
        mode: 'enforce',
        priority: 1000,
        source: { file: exports.BUILT_IN_FILE, line: 0, col: 0 },
        rules: [(0, shapes_1.ruleOf)({ kind: emergency_stop_1.emergencyStopRule.key, path, ...emergency_stop_1.emergencyStopRule.compile({}) })],
    };
    const passed = (0, policy_texts_1.passOutcome)(head);
    return (0, shapes_1.policyOf)({
        name: head.name,
        description: 'Built in: no run starts while the Steadybit emergency stop (kill switch) is engaged.',
        mode: head.mode,
        priority: head.priority,
        source: head.source,
        matchSpec: undefined,
        match: (0, scope_1.compileScope)(undefined, false),
        exclude: (0, scope_1.compileScope)(undefined, true),
        rules: head.rules,
        message: undefined,
        modifications: [],
        passed,
        whileRunning: undefined,
    });
}
/** The built-in policies for the setting: what the service, `eval` and `test` all add to a loaded set. */
function builtInPolicies(emergencyStop) {
    return emergencyStop === 'enforce' ? [emergencyStopPolicy()] : [];
}
/**
 * The bundle with the built-in policies first (in bundle order), its index and needs rebuilt: the
 * policy set every decision is made on, in the service and in the CLI alike. Without built-ins, the
 * bundle itself.
 */
function withBuiltIns(bundle, builtIns) {
    if (builtIns.length === 0)
        return bundle;
    return (0, assemble_bundle_1.assembleBundle)({ ...bundle, policies: [...builtIns, ...bundle.policies] });
}
//# sourceMappingURL=built-in-policies.js.map