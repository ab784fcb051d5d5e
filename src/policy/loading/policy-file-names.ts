/** The names the loader takes as policy files, in a directory or given as texts. */
export const POLICY_FILE = /\.ya?ml$/i;
/** Policy test suites live next to the policies (issue: policy-as-code workflow); they are not policies. */
export const TEST_FILE = /\.test\.ya?ml$/i;
/** Properties every run must satisfy (`kind: PolicyProperty`, docs/prove.md) live beside the policies too; they are not policies. */
export const PROPERTY_FILE = /\.property\.ya?ml$/i;
