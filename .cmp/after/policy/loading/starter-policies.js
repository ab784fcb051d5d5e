"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.STARTER_POLICIES_NOTICE = exports.STARTER_POLICY_DIR = void 0;
exports.isStarterPolicyDir = isStarterPolicyDir;
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
/** The starter policies shipped with preflight-gate (the package's and the image's policies/). */
exports.STARTER_POLICY_DIR = (0, node_path_1.join)(__dirname, '..', '..', '..', 'policies');
/** Said at start-up and in /readyz while the starter policies decide runs. */
exports.STARTER_POLICIES_NOTICE = 'POLICY_DIR is the starter policies bundled with preflight-gate: examples, not your rules. Point POLICY_DIR at your policies (the chart: policies.files or policies.existingConfigMap)';
/** True when `dir` is the bundled starter set (same directory after resolving links); false for any other or missing dir. */
function isStarterPolicyDir(dir) {
    try {
        return (0, node_fs_1.realpathSync)(dir) === (0, node_fs_1.realpathSync)(exports.STARTER_POLICY_DIR);
    }
    catch {
        return false; // a missing POLICY_DIR is reported by the loader, not here
    }
}
//# sourceMappingURL=starter-policies.js.map