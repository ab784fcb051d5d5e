"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.downloadS3Archive = downloadS3Archive;
const node_fs_1 = require("node:fs");
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const node_stream_1 = require("node:stream");
const promises_2 = require("node:stream/promises");
const client_s3_1 = require("@aws-sdk/client-s3");
const archive_files_1 = require("../archive/archive-files");
/** The archive files directly under the prefix (`<stem>.jsonl[.gz]`, `<stem>-<stamp>.jsonl[.gz]`), by key. */
async function archiveKeys(client, at, since) {
    const from = since && (0, archive_files_1.stampOf)(since);
    const keys = [];
    let token;
    do {
        const page = await client.send(new client_s3_1.ListObjectsV2Command({ Bucket: at.bucket, Prefix: at.prefix, ContinuationToken: token }));
        for (const object of page.Contents ?? []) {
            const name = object.Key?.slice(at.prefix.length) ?? '';
            const parsed = name.includes('/') ? undefined : (0, archive_files_1.parseArchiveName)(name);
            if (!parsed)
                continue;
            // A file closed before --since holds only older decisions: not fetched.
            if (from !== undefined && parsed.closedAt !== undefined && parsed.closedAt.slice(0, from.length) < from)
                continue;
            keys.push(object.Key);
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
}
/**
 * `replay --archive s3://bucket/prefix`: the archive files an S3 archive uploaded (one per closed
 * file, named after the writer and its closing time), fetched with the AWS SDK into a temporary
 * directory that replay then reads as a directory archive. Files closed before `since` are skipped.
 */
async function downloadS3Archive(client, at, since) {
    const dir = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'preflight-gate-replay-'));
    const remove = () => (0, promises_1.rm)(dir, { recursive: true, force: true });
    try {
        const keys = await archiveKeys(client, at, since);
        for (const key of keys) {
            const object = await client.send(new client_s3_1.GetObjectCommand({ Bucket: at.bucket, Key: key }));
            if (!(object.Body instanceof node_stream_1.Readable))
                throw new Error(`s3://${at.bucket}/${key}: the answer has no body`);
            await (0, promises_2.pipeline)(object.Body, (0, node_fs_1.createWriteStream)((0, node_path_1.join)(dir, (0, node_path_1.basename)(key)), { flags: 'wx' }));
        }
        return { dir, files: keys.length, remove };
    }
    catch (err) {
        await remove();
        throw err;
    }
}
//# sourceMappingURL=download-s3-archive.js.map