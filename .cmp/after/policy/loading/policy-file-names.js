"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PROPERTY_FILE = exports.TEST_FILE = exports.POLICY_FILE = void 0;
/** The names the loader takes as policy files, in a directory or given as texts. */
exports.POLICY_FILE = /\.ya?ml$/i;
/** Policy test suites live next to the policies (issue: policy-as-code workflow); they are not policies. */
exports.TEST_FILE = /\.test\.ya?ml$/i;
/** Properties every run must satisfy (`kind: PolicyProperty`, docs/prove.md) live beside the policies too; they are not policies. */
exports.PROPERTY_FILE = /\.property\.ya?ml$/i;
//# sourceMappingURL=policy-file-names.js.map