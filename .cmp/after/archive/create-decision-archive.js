"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.createDecisionArchive = createDecisionArchive;
const archive_files_1 = require("./archive-files");
const decision_archive_1 = require("./decision-archive");
const prepare_archive_dir_1 = require("./prepare-archive-dir");
const rotating_file_1 = require("./rotating-file");
const spooled_writer_1 = require("./spooled-writer");
const node_path_1 = require("node:path");
const spool_uploader_1 = require("./spool-uploader");
/**
 * The AWS SDK's client (s3-client.ts), made at the first upload: the SDK is about a third of what
 * the service would load at start, and only an S3 archive uses it (docs/decisions/0030).
 */
function lazyS3Client(settings) {
    let client;
    const send = async (...args) => {
        client ??= Promise.resolve().then(() => __importStar(require('./s3-client'))).then((m) => m.createS3Client(settings, { maxAttempts: 1 }));
        return (await client).send(...args);
    };
    return { send: send };
}
/**
 * The archive DECISION_ARCHIVE asks for: a rotating, gzipping file, and for `s3://` that file in a
 * local spool whose closed files are uploaded (spooled-writer.ts). A timer closes a file that is
 * older than DECISION_ARCHIVE_MAX_AGE even when no decision comes (it does not keep the process up).
 * Its directory is created now if missing; one that cannot be written throws a ConfigError.
 */
function createDecisionArchive(settings, deps) {
    (0, prepare_archive_dir_1.prepareArchiveDir)(settings.path);
    const logError = (what, err) => deps.logger.error(`decision archive: cannot ${what}`, { error: err instanceof Error ? err.message : String(err) });
    let uploader;
    const file = new rotating_file_1.RotatingFile({
        ...settings,
        // Files waiting for upload are never pruned: the spool's bound is DECISION_ARCHIVE_SPOOL_MAX_BYTES.
        maxFiles: settings.location ? 0 : settings.maxFiles,
        clock: deps.clock ?? (() => new Date()),
        onError: logError,
        onClosed: () => void uploader?.upload(),
    });
    let writer = { write: (chunk) => file.write(chunk), close: () => file.close() };
    if (settings.location && settings.s3 && settings.spoolMaxBytes !== undefined) {
        uploader = new spool_uploader_1.SpoolUploader({
            dir: (0, node_path_1.dirname)(settings.path),
            stem: (0, archive_files_1.stemOf)(settings.path),
            location: settings.location,
            logger: deps.logger,
            client: deps.s3Client ?? lazyS3Client(settings.s3),
            gzipping: () => file.gzipping(),
            observe: {
                upload: (outcome) => deps.metrics.archiveUploads.inc({ outcome }),
                spoolBytes: (bytes) => deps.metrics.archiveSpoolBytes.set(bytes),
            },
        });
        writer = (0, spooled_writer_1.spooledWriter)({
            file,
            uploader,
            maxBytes: settings.spoolMaxBytes,
            location: settings.location,
            spool: (0, node_path_1.dirname)(settings.path),
        });
        void uploader.upload(); // What an earlier process left.
    }
    const timer = setInterval(() => {
        file.rotateIfOld().catch((err) => logError('close an old file', err));
    }, Math.min(settings.maxAgeMs, 60_000));
    timer.unref();
    const archive = (0, decision_archive_1.decisionArchive)({
        writer,
        queueBytes: settings.queueBytes,
        maskAttributes: settings.maskAttributes,
        metrics: deps.metrics,
        logger: deps.logger,
    });
    return {
        record: archive.record,
        close: async (deadlineMs) => {
            clearInterval(timer);
            await archive.close(deadlineMs);
        },
    };
}
//# sourceMappingURL=create-decision-archive.js.map