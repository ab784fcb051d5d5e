import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { POLICY_FILE, TEST_FILE } from './policy-file-names';
import type { SourceFile } from './yaml-source';

/**
 * Reads every policy file below `dir` (sorted, recursive). Hidden entries are skipped, which also
 * skips the `..data` and `..2024_...` folders of a Kubernetes ConfigMap mount (its files are
 * reached through their top-level symlinks). Throws when the directory cannot be read.
 */
export function readPolicyDir(dir: string, opts: { tests?: boolean } = {}): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (current: string) => {
    for (const name of readdirSync(current).sort()) {
      if (name.startsWith('.')) continue;
      const full = join(current, name);
      const stat = statSync(full);
      if (stat.isDirectory()) walk(full);
      else if (stat.isFile() && POLICY_FILE.test(name) && TEST_FILE.test(name) === Boolean(opts.tests)) {
        out.push({ file: join(dir, relative(dir, full)), key: relative(dir, full), text: readFileSync(full, 'utf8') });
      }
    }
  };
  walk(dir);
  return out;
}
