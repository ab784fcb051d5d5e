"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.gzipMembers = gzipMembers;
const node_fs_1 = require("node:fs");
const node_zlib_1 = require("node:zlib");
const FHCRC = 2;
const FEXTRA = 4;
const FNAME = 8;
const FCOMMENT = 16;
/** The bytes of a file from `at` (at most `length`). */
function bytesAt(path, at, length) {
    const fd = (0, node_fs_1.openSync)(path, 'r');
    try {
        const buf = Buffer.alloc(length);
        return buf.subarray(0, (0, node_fs_1.readSync)(fd, buf, 0, length, at));
    }
    finally {
        (0, node_fs_1.closeSync)(fd);
    }
}
/** The length of the gzip member header at the start of `head` (RFC 1952 2.3), or undefined if it is none. */
function headerLength(head) {
    if (head.length < 10 || head[0] !== 0x1f || head[1] !== 0x8b || head[2] !== 8)
        return undefined;
    const flags = head[3];
    let at = 10;
    if (flags & FEXTRA)
        at += 2 + head.readUInt16LE(at);
    for (const flag of [FNAME, FCOMMENT])
        if (flags & flag) {
            const zero = head.indexOf(0, at);
            if (zero < 0)
                return undefined;
            at = zero + 1;
        }
    if (flags & FHCRC)
        at += 2;
    return at <= head.length ? at : undefined;
}
/**
 * The decompressed bytes of a gzip file member after member, each checked against its CRC-32 and
 * length, stopping where the members end: unlike zlib's gunzip, data after the last member (an
 * appended line, garbage) does not lose the lines before it. Read when gunzip failed with a data
 * error, to tell trailing data from a corrupt stream. Throws on a corrupt member; `end()` says
 * where the members ended once the chunks are read.
 */
function gzipMembers(path, size) {
    let at = 0;
    let trailing = false;
    async function* chunks() {
        while (at < size) {
            const head = bytesAt(path, at, 64 * 1024);
            if (head[0] === 0)
                break; // zeros after the last member, as gunzip allows
            const header = headerLength(head);
            if (header === undefined) {
                trailing = true;
                return;
            }
            const inflate = (0, node_zlib_1.createInflateRaw)({ chunkSize: 1 << 16 });
            (0, node_fs_1.createReadStream)(path, { start: at + header, highWaterMark: 1 << 20 })
                .on('error', (err) => inflate.destroy(err))
                .pipe(inflate);
            let crc = 0;
            let length = 0;
            for await (const chunk of inflate) {
                crc = (0, node_zlib_1.crc32)(chunk, crc);
                length += chunk.length;
                yield chunk;
            }
            // After the deflate stream, bytesWritten is what it consumed; the member's trailer follows.
            const trailerAt = at + header + inflate.bytesWritten;
            const trailer = bytesAt(path, trailerAt, 8);
            if (trailer.length < 8 || trailer.readUInt32LE(0) !== crc >>> 0 || trailer.readUInt32LE(4) !== length >>> 0)
                throw new Error(`the member ending at byte ${trailerAt} fails its CRC-32 or length check`);
            at = trailerAt + 8;
        }
    }
    return { chunks: chunks(), end: () => ({ end: at, size, trailing }) };
}
//# sourceMappingURL=gzip-members.js.map