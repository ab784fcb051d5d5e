import type { LoadResult } from './load-bundle';
import { loadPolicySources } from './load-policy-texts';
import { readPolicyDir } from './read-policy-dir';
import type { SourceFile } from './yaml-source';

/** Reads and loads a policy directory; an unreadable directory is a load problem, not a crash. */
export function loadPolicyDir(dir: string, now: Date = new Date()): LoadResult {
  let sources: SourceFile[];
  try {
    sources = readPolicyDir(dir);
  } catch (err) {
    const message = `cannot read the policy directory: ${(err as Error).message} (set POLICY_DIR to a directory of policy YAML files)`;
    return { ok: false, problems: [{ file: dir, line: 1, col: 1, path: '', message, severity: 'error' }] };
  }
  return loadPolicySources(sources, now, dir);
}
