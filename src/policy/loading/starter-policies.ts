import { realpathSync } from 'node:fs';
import { join } from 'node:path';

/** The starter policies shipped with preflight-gate (the package's and the image's policies/). */
export const STARTER_POLICY_DIR = join(__dirname, '..', '..', '..', 'policies');

/** Said at start-up and in /readyz while the starter policies decide runs. */
export const STARTER_POLICIES_NOTICE =
  'POLICY_DIR is the starter policies bundled with preflight-gate: examples, not your rules. Point POLICY_DIR at your policies (the chart: policies.files or policies.existingConfigMap)';

/** True when `dir` is the bundled starter set (same directory after resolving links); false for any other or missing dir. */
export function isStarterPolicyDir(dir: string): boolean {
  try {
    return realpathSync(dir) === realpathSync(STARTER_POLICY_DIR);
  } catch {
    return false; // a missing POLICY_DIR is reported by the loader, not here
  }
}
