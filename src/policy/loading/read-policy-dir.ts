import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type ListedFile, listingOf, type PolicyDirListing } from './policy-dir-listing';
import { policyKindOf } from './policy-kind-of';
import { suiteReadFiles } from './suite-read-files';
import type { SourceFile } from '../compile/yaml-source';

/**
 * Reads every policy file below `dir` (sorted, recursive), or with `tests` every test suite, or with
 * `properties` every property file (`*.property.yaml`, docs/prove.md: never a policy). A YAML
 * file a test suite reads (`payloadFile: testdata/run.yaml`, a `signalsFile`) is the suite's data,
 * not a policy, unless it declares a policy-set kind: a suite naming a policy file (by mistake or
 * not) never takes that policy out of the set. Hidden entries are skipped (policy-dir-listing.ts).
 * `from` is the directory, or its listing when the caller reads the directory for other checks
 * too. Throws when the directory cannot be read, or holds a link to nothing.
 */
export function readPolicyDir(
  from: string | PolicyDirListing,
  opts: { tests?: boolean; properties?: boolean } = {},
): SourceFile[] {
  const listing = listingOf(from);
  if (listing.error) throw listing.error;
  const { policies: policyPaths, suites: suitePaths, properties: propertyPaths } = listing;
  // Only what is returned is read (the suites always: they say which files are their data).
  const read = ({ file, key }: ListedFile): SourceFile => ({ file, key, text: readFileSync(file, 'utf8') });
  if (opts.properties) return propertyPaths.map(read);
  const suites = suitePaths.map(read);
  if (opts.tests) return suites;
  const policies = policyPaths.map(read);
  const data = suiteReadFiles(suites);
  if (data.size === 0) return policies;
  return policies.filter((p) => !data.has(resolve(p.file)) || policyKindOf(p) !== undefined);
}
