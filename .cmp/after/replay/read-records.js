"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.readRecords = readRecords;
exports.readBlocks = readBlocks;
exports.archiveLine = archiveLine;
const node_fs_1 = require("node:fs");
const node_zlib_1 = require("node:zlib");
const check_record_1 = require("./check-record");
const gzip_members_1 = require("./gzip-members");
const archive_blocks_1 = require("./archive-blocks");
/** Whether a file starts with gzip's magic bytes (the name is not trusted). */
function isGzip(path) {
    const fd = (0, node_fs_1.openSync)(path, 'r');
    try {
        const head = Buffer.alloc(2);
        return (0, node_fs_1.readSync)(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
    }
    finally {
        (0, node_fs_1.closeSync)(fd);
    }
}
const readUpTo = (lines) => lines === 0 ? 'no line of it could be read' : `lines 1-${lines} were read, the rest of the file cannot be`;
/** Why a file could not be read to its end: zlib's codes say cut short or corrupt, with where the reading stopped. */
function damage(err, gzip, lines, consumed, size) {
    if (!gzip)
        return `the file could not be read to its end (${err.message}); ${readUpTo(lines)}`;
    const how = err.code === 'Z_BUF_ERROR'
        ? `truncated: it ends at byte ${size}, in the middle of its compressed data`
        : `corrupt, found after ${consumed} of its ${size} bytes`;
    return `the gzip file is ${how} (${err.message}); ${readUpTo(lines)}`;
}
/**
 * The lines of one archive file, streamed (plain or gzipped). A line that is not JSON or not a
 * record of a known format becomes a problem. The last line of an open file may be cut short by a
 * crash: reported, and reading goes on with the next file. A file that cannot be read to its end
 * (a gzip file cut short or corrupt) ends with `damaged`, naming the last whole line read.
 */
async function* readRecords(path) {
    for await (const block of readBlocks(path)) {
        if (!('bytes' in block)) {
            yield block;
            continue;
        }
        const lines = (0, archive_blocks_1.blockLines)(block.bytes);
        for (let i = block.skip; i < lines.length; i++) {
            const read = archiveLine(block.file, block.first + i, lines[i]);
            if (read)
                yield read;
        }
    }
}
/**
 * The whole lines of one archive file as blocks of bytes (archive-blocks.ts), plain or gzipped,
 * each line once; a file that cannot be read to its end ends with `damaged`, naming the last whole
 * line handed out. What readRecords reads, and what replay's worker threads are given.
 */
async function* readBlocks(path) {
    let gzip;
    try {
        gzip = isGzip(path);
    }
    catch (err) {
        yield { kind: 'damaged', file: path, line: 0, message: `the file cannot be read (${err.message})` };
        return;
    }
    // Large chunks: far fewer callbacks than the 16 KB defaults (zlib's were a third of replay's time).
    const file = (0, node_fs_1.createReadStream)(path, { highWaterMark: 1 << 20 });
    const gunzip = gzip ? (0, node_zlib_1.createGunzip)({ chunkSize: 1 << 18 }) : undefined;
    const input = gunzip ? file.pipe(gunzip) : file;
    // pipe() does not pass the file's error on to gunzip: it ends the reading there, and says why.
    if (input !== file)
        file.on('error', (err) => input.destroy(err));
    const reader = (0, archive_blocks_1.lineBlocks)(path, input);
    try {
        yield* reader.blocks;
    }
    catch (err) {
        const failure = err;
        const size = file.bytesRead;
        const n = reader.lines();
        if (gzip && failure.code === 'Z_DATA_ERROR') {
            yield* readMembers(path, n, failure, gunzip?.bytesWritten ?? size);
            return;
        }
        const message = damage(failure, gzip, n, gunzip?.bytesWritten ?? size, size);
        yield { kind: 'damaged', file: path, line: n, message };
    }
}
/** A line of a file as an ArchiveLine: a record, or a problem naming it; nothing for a blank line. */
function archiveLine(path, n, line) {
    if (line.trim() === '')
        return undefined;
    const where = `${path}:${n}`;
    let value;
    try {
        value = JSON.parse(line);
    }
    catch (err) {
        return {
            kind: 'problem',
            where,
            message: `not JSON (${err.message}); a line cut short by a crash or a full disk?`,
        };
    }
    const checked = (0, check_record_1.checkRecord)(value);
    return checked.ok
        ? { kind: 'record', record: checked.record, where }
        : { kind: 'problem', where, message: checked.message };
}
/**
 * gunzip failed with a data error after `read` lines (whose output it may have dropped): the file
 * is read again member by member (gzip-members.ts), its lines after `read` handed out. Data after
 * the last whole member (`gzip -dc` reads the lines before it too) is named as trailing data; a
 * corrupt member as gunzip found it (`consumed`: the bytes it had read).
 */
async function* readMembers(path, read, failure, consumed) {
    const size = (0, node_fs_1.statSync)(path).size;
    const members = (0, gzip_members_1.gzipMembers)(path, size);
    const reader = (0, archive_blocks_1.lineBlocks)(path, members.chunks);
    let n;
    try {
        for await (const block of reader.blocks) {
            // The lines handed out before gunzip failed are not handed out again.
            if (reader.lines() <= read)
                continue;
            yield { ...block, skip: Math.max(0, read - block.first + 1) };
        }
    }
    catch {
        // A corrupt member: told as gunzip found it.
        n = reader.lines();
        const message = damage(failure, true, n, consumed, size);
        yield { kind: 'damaged', file: path, line: n, message };
        return;
    }
    n = reader.lines();
    const { end, trailing } = members.end();
    // Not even a first whole member (a bad header): corrupt, as gunzip found it.
    if (trailing && end === 0)
        yield { kind: 'damaged', file: path, line: n, message: damage(failure, true, n, consumed, size) };
    else if (trailing)
        yield {
            kind: 'damaged',
            file: path,
            line: n,
            message: `the gzip file has trailing data after its compressed stream: bytes ${end + 1}-${size} of ${size} are not gzip data (${failure.message}); ${n === 0 ? 'no line came before them' : `lines 1-${n} were read`}, the trailing data cannot be`,
        };
}
//# sourceMappingURL=read-records.js.map