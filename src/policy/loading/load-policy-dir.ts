import type { LoadResult } from './load-bundle';
import { loadPolicySources } from './load-policy-texts';
import { misplacedPolicies, refusedWithMisplaced } from './misplaced-policies';
import { listPolicyDir } from './policy-dir-listing';
import { readPolicyDir } from './read-policy-dir';
import type { SourceFile } from '../compile/yaml-source';

/** Reads and loads a policy directory; an unreadable directory is a load problem, not a crash. */
export function loadPolicyDir(dir: string, now: Date = new Date()): LoadResult {
  return loadPolicyDirSources(dir, now).loaded;
}

/** The same, with the files the set was loaded from (none when the directory cannot be read): what `test --coverage` locates rules in. */
export function loadPolicyDirSources(
  dir: string,
  now: Date = new Date(),
): { loaded: LoadResult; sources: readonly SourceFile[] } {
  // One walk of the directory: the policies and the misplaced ones are read from it.
  const listing = listPolicyDir(dir);
  let sources: SourceFile[];
  try {
    sources = readPolicyDir(listing);
  } catch (err) {
    const message = `cannot read the policy directory: ${(err as Error).message} (set POLICY_DIR to a directory of policy YAML files)`;
    return {
      loaded: { ok: false, problems: [{ file: dir, line: 1, col: 1, path: '', message, severity: 'error' }] },
      sources: [],
    };
  }
  const loaded = loadPolicySources(sources, now, dir);
  const misplaced = misplacedPolicies(listing);
  if (misplaced.length === 0) return { loaded, sources };
  // A policy saved as a suite fails the set, as the service refuses it.
  return { loaded: refusedWithMisplaced(misplaced, sources.length === 0 ? undefined : loaded), sources };
}
