"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.servedBundle = servedBundle;
const built_in_policies_1 = require("../compile/built-in-policies");
const bad_input_error_1 = require("../../common/bad-input-error");
/**
 * The policy set `eval` and `test` decide on: the loaded one with the built-in policies, exactly as
 * the service serves it (EMERGENCY_STOP_POLICY read the same way).
 */
function servedBundle(loaded, env) {
    return (0, bad_input_error_1.readSettings)(() => (0, built_in_policies_1.withBuiltIns)(loaded, (0, built_in_policies_1.builtInPolicies)((0, built_in_policies_1.emergencyStopSetting)(env))));
}
//# sourceMappingURL=served-bundle.js.map