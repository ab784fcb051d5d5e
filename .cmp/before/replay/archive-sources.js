"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.archiveSources = archiveSources;
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const archive_files_1 = require("../archive/archive-files");
const bad_input_error_1 = require("../common/bad-input-error");
const order = (a, b) => {
    if (a.closedAt === b.closedAt)
        return 0;
    if (a.closedAt === undefined)
        return 1;
    if (b.closedAt === undefined)
        return -1;
    return a.closedAt < b.closedAt ? -1 : 1;
};
/**
 * What `--archive` names: one file (plain or gzipped, any name), or a directory whose archive files
 * (`*.jsonl`, `*.jsonl.gz`) are grouped by writer. Other files in the directory are ignored.
 * `readDir` lists a directory (injected by tests: one that cannot be read, whoever runs them).
 */
function archiveSources(path, readDir = node_fs_1.readdirSync) {
    let isDir;
    try {
        isDir = (0, node_fs_1.statSync)(path).isDirectory();
    }
    catch (err) {
        const code = err.code;
        throw new bad_input_error_1.BadInputError(`archive ${path} ${code === 'ENOENT' ? 'does not exist' : `cannot be read: ${err.message}`}`);
    }
    if (!isDir)
        return [{ name: path, files: [{ path }] }];
    const streams = new Map();
    let names;
    try {
        names = readDir(path).sort();
    }
    catch (err) {
        // A directory that cannot be listed (no permission to read it) is a usage error, as a missing one.
        throw new bad_input_error_1.BadInputError(`archive directory ${path} cannot be read: ${err.message}`);
    }
    for (const name of names) {
        const parsed = (0, archive_files_1.parseArchiveName)(name);
        if (!parsed)
            continue;
        const stream = streams.get(parsed.stem) ?? { name: (0, node_path_1.join)(path, parsed.stem), files: [] };
        // A closed file next to its .gz is still being gzipped (the .gz is not whole yet): read the plain one.
        if (parsed.gzipped && parsed.closedAt !== undefined && names.includes(name.replace(/\.gz$/, '')))
            continue;
        stream.files.push({ path: (0, node_path_1.join)(path, name), closedAt: parsed.closedAt });
        streams.set(parsed.stem, stream);
    }
    if (streams.size === 0)
        throw new bad_input_error_1.BadInputError(`archive directory ${path} holds no archive files (*.jsonl, *.jsonl.gz)`);
    for (const stream of streams.values())
        stream.files.sort(order);
    return [...streams.values()];
}
//# sourceMappingURL=archive-sources.js.map