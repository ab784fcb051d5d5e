"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ignoredPolicyFiles = ignoredPolicyFiles;
exports.filesNotLoaded = filesNotLoaded;
exports.ignoredFilesWarning = ignoredFilesWarning;
exports.ignoredFileProblems = ignoredFileProblems;
const node_path_1 = require("node:path");
const policy_dir_listing_1 = require("./policy-dir-listing");
const suite_file_references_1 = require("./suite-file-references");
/** Files that sit beside policies by design and are left alone without a word: documentation and ownership. */
const EXPECTED_BESIDE = /^(readme|license|licence|notice|changelog|codeowners|owners)(\..*)?$|\.(md|markdown|txt|rst|adoc)$/i;
/**
 * The files below `dir` the loader does not read, which someone may have meant as policies: a
 * `prod.json`, a `prod.yaml.bak`, a `prod.yml~` (relative paths, sorted). Not named: hidden entries
 * (`.git`, a ConfigMap's `..data`), policy files and test suites (`*.yaml`, `*.yml`), documentation
 * (`README.md`, `*.md`, `*.txt`, `LICENSE`, `CODEOWNERS`) and the files in `used` (absolute paths:
 * what the test suites read, such as `testdata/run.json`). Empty when the directory cannot be read.
 * `from`: the directory, or the listing the load read.
 */
function ignoredPolicyFiles(from, used = new Set()) {
    const listing = (0, policy_dir_listing_1.listingOf)(from);
    // An unreadable directory is the loader's error to report, with its reason.
    if (!listing.complete)
        return [];
    return listing.others
        .filter(({ file }) => !EXPECTED_BESIDE.test((0, node_path_1.basename)(file)) && !used.has((0, node_path_1.resolve)(file)))
        .map(({ key }) => key);
}
/** The files below the listed directory not loaded: ignoredPolicyFiles, less what its suites read. */
function filesNotLoaded(listing) {
    return ignoredPolicyFiles(listing, (0, suite_file_references_1.suiteFileReferences)(listing));
}
/** The one warning about them, or undefined when there are none. */
function ignoredFilesWarning(ignored) {
    if (ignored.length === 0)
        return undefined;
    const shown = ignored.length > 10 ? `${ignored.slice(0, 10).join(', ')} and ${ignored.length - 10} more` : ignored.join(', ');
    return `not loaded, ignored: ${shown}; only *.yaml and *.yml files are policies (rename one meant as a policy to <name>.yaml, move the others out of the policy directory; docs/policies.md#the-policy-directory)`;
}
/** What each ignored file's warning says after naming it. */
const IGNORED_FILE_WARNING = 'not loaded, ignored: only *.yaml and *.yml files are policies (rename it to <name>.yaml if it is meant as a policy, else move it out of the policy directory; docs/policies.md#the-policy-directory)';
/**
 * The files below `dir` that are not loaded (filesNotLoaded, or `notLoaded` when the caller has
 * them): one warning each, at that file, as `validate`, `test`, /readyz and GitHub annotations show them.
 */
function ignoredFileProblems(dir, notLoaded = filesNotLoaded((0, policy_dir_listing_1.listingOf)(dir))) {
    return notLoaded.map((file) => ({
        file: (0, node_path_1.join)(dir, file),
        line: 1,
        col: 1,
        path: '',
        message: IGNORED_FILE_WARNING,
        severity: 'warning',
    }));
}
//# sourceMappingURL=ignored-policy-files.js.map