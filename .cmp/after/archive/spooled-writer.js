"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SpoolFullError = void 0;
exports.spooledWriter = spooledWriter;
/** A spool too full to take more lines: S3 has not taken the files for a while. */
class SpoolFullError extends Error {
}
exports.SpoolFullError = SpoolFullError;
/**
 * The writer of an S3 archive: lines go to the rotating file in the spool while the spool holds
 * less than its bound; beyond it the lines are refused (the archive counts them as failed and logs
 * why) rather than filling the disk, and the files already waiting are kept. On close the open file
 * is closed like a full one and everything waiting is uploaded by the deadline.
 */
function spooledWriter(deps) {
    return {
        async write(chunk) {
            const used = deps.uploader.waitingBytes() + deps.file.openBytes();
            if (used + Buffer.byteLength(chunk) > deps.maxBytes) {
                throw new SpoolFullError(`the spool ${deps.spool} holds ${used} bytes not yet uploaded to s3://${deps.location.bucket}/${deps.location.prefix} (DECISION_ARCHIVE_SPOOL_MAX_BYTES=${deps.maxBytes}); see the upload errors`);
            }
            await deps.file.write(chunk);
        },
        async close(deadlineMs) {
            await deps.file.close({ rotate: true });
            await deps.uploader.close(deadlineMs ?? Date.now() + (deps.closeBudgetMs ?? 25_000));
        },
    };
}
//# sourceMappingURL=spooled-writer.js.map