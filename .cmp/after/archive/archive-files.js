"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.stampOf = exports.stemOf = void 0;
exports.parseArchiveName = parseArchiveName;
exports.closedPath = closedPath;
const node_path_1 = require("node:path");
const CLOSED = /^(.+)-(\d{8}T\d{9}Z)(?:-(\d+))?\.jsonl(\.gz)?$/;
const OPEN = /^(.+)\.jsonl(\.gz)?$/;
/** The parts of an archive file name, or undefined for a file that is not one (replay skips it). */
function parseArchiveName(file) {
    const name = (0, node_path_1.basename)(file);
    const closed = CLOSED.exec(name);
    if (closed)
        return {
            stem: closed[1],
            closedAt: closed[2] + (closed[3] ? `-${closed[3].padStart(6, '0')}` : ''),
            gzipped: closed[4] !== undefined,
        };
    const open = OPEN.exec(name);
    return open ? { stem: open[1], gzipped: open[2] !== undefined } : undefined;
}
/** The stem of the file a writer appends to: `/data/decisions.jsonl` -> `decisions`. */
const stemOf = (path) => (0, node_path_1.basename)(path).replace(/\.jsonl$/, '');
exports.stemOf = stemOf;
/** `2026-11-23T21:14:00.123Z` -> `20261123T211400123Z`. */
const stampOf = (time) => time.toISOString().replace(/[-:.]/g, '');
exports.stampOf = stampOf;
/** The name a closed file gets (before gzip); `n` tells apart files closed in the same millisecond. */
function closedPath(path, time, n = 0) {
    return (0, node_path_1.join)((0, node_path_1.dirname)(path), `${(0, exports.stemOf)(path)}-${(0, exports.stampOf)(time)}${n > 0 ? `-${n}` : ''}.jsonl`);
}
//# sourceMappingURL=archive-files.js.map