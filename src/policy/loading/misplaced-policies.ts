import { basename } from 'node:path';
import type { LoadResult } from './load-bundle';
import type { LoadProblem } from '../compile/load-error';
import { policyKindOf } from './policy-kind-of';
import { listingOf, type PolicyDirListing } from './policy-dir-listing';
import { readPolicyDir } from './read-policy-dir';
import type { SourceFile } from '../compile/yaml-source';

/** `prod.test.yaml` -> `prod.yaml` (the name it would load under). */
const renamed = (name: string): string => name.replace(/\.(?:test|property)(\.ya?ml)$/i, '$1');

/**
 * The test suites (`*.test.yaml`, `*.test.yml`) and properties (`*.property.yaml`, `*.property.yml`),
 * never loaded as policies, below `dir` that hold a
 * policy-set document (`kind: Policy`, Exception, EnvironmentAliases, ExceptionSettings): one error
 * each, at the file, so a policy saved under a suite's name fails the load like a typo would instead
 * of being silently left out. Empty when the directory cannot be read (the loader says why). `from`:
 * the directory, or the listing the load read.
 */
export function misplacedPolicies(from: string | PolicyDirListing): LoadProblem[] {
  const listing = listingOf(from);
  let suites: SourceFile[];
  let properties: SourceFile[];
  try {
    suites = readPolicyDir(listing, { tests: true });
    properties = readPolicyDir(listing, { properties: true });
  } catch {
    return [];
  }
  const what = new Map([
    ...suites.map((s) => [s, '*.test.yaml files are test suites'] as const),
    ...properties.map((s) => [s, '*.property.yaml files are properties (docs/prove.md)'] as const),
  ]);
  return [...what].flatMap(([source, files]) => {
    const kind = policyKindOf(source);
    if (kind === undefined) return [];
    const name = basename(source.file);
    const message = `${name} holds kind: ${kind}, but ${files} and are never loaded as policies: rename it (e.g. ${renamed(name)})`;
    return [{ file: source.file, line: 1, col: 1, path: '', message, severity: 'error' as const }];
  });
}

/**
 * What refuses a set holding misplaced policies: those errors first, then every problem of the load
 * of the other files (`loaded`; undefined when there were none to load, as "no policy files" would
 * only repeat the misplaced ones), so one attempt shows all that is to fix, in the service as in `validate`.
 */
export function refusedWithMisplaced(
  misplaced: readonly LoadProblem[],
  loaded: LoadResult | undefined,
): { ok: false; problems: LoadProblem[] } {
  return { ok: false, problems: [...misplaced, ...(loaded === undefined || loaded.ok ? [] : loaded.problems)] };
}
