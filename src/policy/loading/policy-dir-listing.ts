import { statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { entriesOf, kindOf } from './directory-entries';
import { POLICY_FILE, PROPERTY_FILE, TEST_FILE } from './policy-file-names';

/** One file of a listing: `file`, `dir` joined with `key`, its path below `dir` (what the revision hash covers). */
export interface ListedFile {
  file: string;
  key: string;
}

/**
 * The files below a policy directory from one walk (sorted, recursive). Hidden entries are skipped, which also skips the `..data` and `..2024_...` folders
 * of a Kubernetes ConfigMap mount (its files are reached through their top-level symlinks). Every
 * check of a load reads the one listing: the policies, the misplaced ones, the files the suites read
 * and the files not loaded (docs/decisions/0032).
 */
export interface PolicyDirListing {
  dir: string;
  /** `*.yaml` and `*.yml` files but the suites and properties. */
  policies: ListedFile[];
  /** `*.test.yaml`, `*.test.yml`. */
  suites: ListedFile[];
  /** `*.property.yaml`, `*.property.yml` (docs/prove.md). */
  properties: ListedFile[];
  /** Every other file (`prod.json`, `README.md`): what ignoredPolicyFiles looks among. */
  others: ListedFile[];
  /**
   * The first error the walk met: a link to nothing, or what stopped it (a directory it cannot
   * read). Reading the files of the listing throws it (readPolicyDir).
   */
  error?: Error;
  /** Whether the walk went through: it stops at a directory or entry it cannot read, not at a link to nothing. */
  complete: boolean;
}

/** The error `stat` gives for a link to nothing (undefined when the link now leads somewhere). */
function statError(full: string): Error | undefined {
  try {
    statSync(full);
    return undefined;
  } catch (err) {
    return err as Error;
  }
}

/** Walks `dir` once; never throws (what it met is in `error` and `complete`). */
export function listPolicyDir(dir: string): PolicyDirListing {
  const listing: PolicyDirListing = { dir, policies: [], suites: [], properties: [], others: [], complete: true };
  // `below`: the path of `current` below `dir` ('' for `dir` itself), so no path is made relative again.
  const walk = (current: string, below: string) => {
    for (const entry of entriesOf(current)) {
      const { name } = entry;
      if (name.startsWith('.')) continue;
      const full = join(current, name);
      const key = below === '' ? name : `${below}${sep}${name}`;
      const kind = kindOf(entry, full);
      if (kind === 'directory') walk(full, key);
      else if (kind === 'file')
        (!POLICY_FILE.test(name)
          ? listing.others
          : PROPERTY_FILE.test(name)
            ? listing.properties
            : TEST_FILE.test(name)
              ? listing.suites
              : listing.policies
        ).push({ file: full, key });
      else if (entry.isSymbolicLink()) listing.error ??= statError(full);
    }
  };
  try {
    walk(dir, '');
  } catch (err) {
    listing.error ??= err as Error;
    listing.complete = false;
  }
  return listing;
}

/** `from` as a listing: a directory is walked (once), a listing is taken as it is. */
export const listingOf = (from: string | PolicyDirListing): PolicyDirListing =>
  typeof from === 'string' ? listPolicyDir(from) : from;
