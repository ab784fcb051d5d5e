import { basename, join, resolve } from 'node:path';
import type { LoadProblem } from '../compile/load-error';
import { listingOf, type PolicyDirListing } from './policy-dir-listing';
import { suiteFileReferences } from './suite-file-references';

/** Files that sit beside policies by design and are left alone without a word: documentation and ownership. */
const EXPECTED_BESIDE =
  /^(readme|license|licence|notice|changelog|codeowners|owners)(\..*)?$|\.(md|markdown|txt|rst|adoc)$/i;

/**
 * The files below `dir` the loader does not read, which someone may have meant as policies: a
 * `prod.json`, a `prod.yaml.bak`, a `prod.yml~` (relative paths, sorted). Not named: hidden entries
 * (`.git`, a ConfigMap's `..data`), policy files and test suites (`*.yaml`, `*.yml`), documentation
 * (`README.md`, `*.md`, `*.txt`, `LICENSE`, `CODEOWNERS`) and the files in `used` (absolute paths:
 * what the test suites read, such as `testdata/run.json`). Empty when the directory cannot be read.
 * `from`: the directory, or the listing the load read.
 */
export function ignoredPolicyFiles(from: string | PolicyDirListing, used: ReadonlySet<string> = new Set()): string[] {
  const listing = listingOf(from);
  // An unreadable directory is the loader's error to report, with its reason.
  if (!listing.complete) return [];
  return listing.others
    .filter(({ file }) => !EXPECTED_BESIDE.test(basename(file)) && !used.has(resolve(file)))
    .map(({ key }) => key);
}

/** The files below the listed directory not loaded: ignoredPolicyFiles, less what its suites read. */
export function filesNotLoaded(listing: PolicyDirListing): string[] {
  return ignoredPolicyFiles(listing, suiteFileReferences(listing));
}

/** The one warning about them, or undefined when there are none. */
export function ignoredFilesWarning(ignored: readonly string[]): string | undefined {
  if (ignored.length === 0) return undefined;
  const shown =
    ignored.length > 10 ? `${ignored.slice(0, 10).join(', ')} and ${ignored.length - 10} more` : ignored.join(', ');
  return `not loaded, ignored: ${shown}; only *.yaml and *.yml files are policies (rename one meant as a policy to <name>.yaml, move the others out of the policy directory; docs/policies.md#the-policy-directory)`;
}

/** What each ignored file's warning says after naming it. */
const IGNORED_FILE_WARNING =
  'not loaded, ignored: only *.yaml and *.yml files are policies (rename it to <name>.yaml if it is meant as a policy, else move it out of the policy directory; docs/policies.md#the-policy-directory)';

/**
 * The files below `dir` that are not loaded (filesNotLoaded, or `notLoaded` when the caller has
 * them): one warning each, at that file, as `validate`, `test`, /readyz and GitHub annotations show them.
 */
export function ignoredFileProblems(
  dir: string,
  notLoaded: readonly string[] = filesNotLoaded(listingOf(dir)),
): LoadProblem[] {
  return notLoaded.map((file) => ({
    file: join(dir, file),
    line: 1,
    col: 1,
    path: '',
    message: IGNORED_FILE_WARNING,
    severity: 'warning',
  }));
}
