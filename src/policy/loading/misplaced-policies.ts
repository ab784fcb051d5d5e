import { basename } from 'node:path';
import type { LoadProblem } from './load-error';
import { policyKindOf } from './policy-kind-of';
import { readPolicyDir } from './read-policy-dir';
import type { SourceFile } from './yaml-source';

/** `prod.test.yaml` -> `prod.yaml` (the name it would load under). */
const renamed = (name: string): string => name.replace(/\.test(\.ya?ml)$/i, '$1');

/**
 * The test suites (`*.test.yaml`, `*.test.yml`, never loaded as policies) below `dir` that hold a
 * policy-set document (`kind: Policy`, Exception, EnvironmentAliases, ExceptionSettings): one error
 * each, at the file, so a policy saved under a suite's name fails the load like a typo would instead
 * of being silently left out. Empty when the directory cannot be read (the loader says why).
 */
export function misplacedPolicies(dir: string): LoadProblem[] {
  let suites: SourceFile[];
  try {
    suites = readPolicyDir(dir, { tests: true });
  } catch {
    return [];
  }
  return suites.flatMap((source) => {
    const kind = policyKindOf(source);
    if (kind === undefined) return [];
    const name = basename(source.file);
    const message = `${name} holds kind: ${kind}, but *.test.yaml files are test suites and are never loaded as policies: rename it (e.g. ${renamed(name)})`;
    return [{ file: source.file, line: 1, col: 1, path: '', message, severity: 'error' as const }];
  });
}
