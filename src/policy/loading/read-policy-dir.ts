import { readFileSync } from 'node:fs';
import { entriesOf, kindOf } from './directory-entries';
import { join, relative, resolve } from 'node:path';
import { POLICY_FILE, PROPERTY_FILE, TEST_FILE } from './policy-file-names';
import { policyKindOf } from './policy-kind-of';
import { suiteReadFiles } from './suite-read-files';
import type { SourceFile } from '../compile/yaml-source';

/**
 * Reads every policy file below `dir` (sorted, recursive), or with `tests` every test suite, or with
 * `properties` every property file (`*.property.yaml`, docs/prove.md: never a policy). A YAML
 * file a test suite reads (`payloadFile: testdata/run.yaml`, a `signalsFile`) is the suite's data,
 * not a policy, unless it declares a policy-set kind: a suite naming a policy file (by mistake or
 * not) never takes that policy out of the set. Hidden entries are skipped, which also skips the `..data` and `..2024_...` folders
 * of a Kubernetes ConfigMap mount (its files are reached through their top-level symlinks). Throws
 * when the directory cannot be read.
 */
export function readPolicyDir(dir: string, opts: { tests?: boolean; properties?: boolean } = {}): SourceFile[] {
  const policyPaths: string[] = [];
  const suitePaths: string[] = [];
  const propertyPaths: string[] = [];
  const walk = (current: string) => {
    for (const entry of entriesOf(current)) {
      const { name } = entry;
      if (name.startsWith('.')) continue;
      const full = join(current, name);
      const kind = kindOf(entry, full);
      if (kind === 'directory') walk(full);
      else if (kind === 'file' && POLICY_FILE.test(name))
        (PROPERTY_FILE.test(name) ? propertyPaths : TEST_FILE.test(name) ? suitePaths : policyPaths).push(full);
    }
  };
  walk(dir);
  // Only what is returned is read (the suites always: they say which files are their data).
  const read = (full: string): SourceFile => {
    const key = relative(dir, full);
    return { file: join(dir, key), key, text: readFileSync(full, 'utf8') };
  };
  if (opts.properties) return propertyPaths.map(read);
  const suites = suitePaths.map(read);
  if (opts.tests) return suites;
  const policies = policyPaths.map(read);
  const data = suiteReadFiles(suites);
  if (data.size === 0) return policies;
  return policies.filter((p) => !data.has(resolve(p.file)) || policyKindOf(p) !== undefined);
}
