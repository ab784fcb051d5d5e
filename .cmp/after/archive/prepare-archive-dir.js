"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.prepareArchiveDir = prepareArchiveDir;
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const env_values_1 = require("../common/env-values");
/**
 * Makes sure the directory the archive file goes into exists and can be written, at start-up
 * (docs/decisions/0013-decision-archive.md). A directory that does not exist yet is created with its
 * parents, as `mkdir -p` would (a sub-directory of a fresh volume is the usual thing to name); one
 * that cannot be created or written stops start-up with a message naming DECISION_ARCHIVE, rather
 * than every decision failing to be archived later.
 */
function prepareArchiveDir(path) {
    const dir = (0, node_path_1.dirname)(path);
    try {
        (0, node_fs_1.mkdirSync)(dir, { recursive: true });
        (0, node_fs_1.accessSync)(dir, node_fs_1.constants.W_OK);
    }
    catch (err) {
        const code = err.code;
        const why = code === 'ENOTDIR' || code === 'EEXIST'
            ? 'a part of it is a file, not a directory'
            : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
                ? 'it is not writable'
                : err.message;
        throw new env_values_1.ConfigError(`DECISION_ARCHIVE: the archive directory ${dir} cannot be created or written (${why}); mount a writable volume there or name another path`);
    }
}
//# sourceMappingURL=prepare-archive-dir.js.map