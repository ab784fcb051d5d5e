"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.listingOf = void 0;
exports.listPolicyDir = listPolicyDir;
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const directory_entries_1 = require("./directory-entries");
const policy_file_names_1 = require("./policy-file-names");
/** The error `stat` gives for a link to nothing (undefined when the link now leads somewhere). */
function statError(full) {
    try {
        (0, node_fs_1.statSync)(full);
        return undefined;
    }
    catch (err) {
        return err;
    }
}
/** Walks `dir` once; never throws (what it met is in `error` and `complete`). */
function listPolicyDir(dir) {
    const listing = { dir, policies: [], suites: [], properties: [], others: [], complete: true };
    // `below`: the path of `current` below `dir` ('' for `dir` itself), so no path is made relative again.
    const walk = (current, below) => {
        for (const entry of (0, directory_entries_1.entriesOf)(current)) {
            const { name } = entry;
            if (name.startsWith('.'))
                continue;
            const full = (0, node_path_1.join)(current, name);
            const key = below === '' ? name : `${below}${node_path_1.sep}${name}`;
            const kind = (0, directory_entries_1.kindOf)(entry, full);
            if (kind === 'directory')
                walk(full, key);
            else if (kind === 'file')
                (!policy_file_names_1.POLICY_FILE.test(name)
                    ? listing.others
                    : policy_file_names_1.PROPERTY_FILE.test(name)
                        ? listing.properties
                        : policy_file_names_1.TEST_FILE.test(name)
                            ? listing.suites
                            : listing.policies).push({ file: full, key });
            else if (entry.isSymbolicLink())
                listing.error ??= statError(full);
        }
    };
    try {
        walk(dir, '');
    }
    catch (err) {
        listing.error ??= err;
        listing.complete = false;
    }
    return listing;
}
/** `from` as a listing: a directory is walked (once), a listing is taken as it is. */
const listingOf = (from) => typeof from === 'string' ? listPolicyDir(from) : from;
exports.listingOf = listingOf;
//# sourceMappingURL=policy-dir-listing.js.map