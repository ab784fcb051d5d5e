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
exports.SpoolUploader = void 0;
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const archive_files_1 = require("./archive-files");
/**
 * Uploads the closed archive files of the spool to `s3://bucket/prefix<file name>`, oldest first,
 * and removes each once S3 has it. A failed upload leaves the file (and the newer ones) in the
 * spool and is tried again with exponential backoff and jitter (1 s doubling to 5 min); a timer also
 * looks every minute, which picks up files an earlier process left. Object names carry the writer's
 * host and the closing time, so replicas never overwrite each other.
 */
class SpoolUploader {
    deps;
    running;
    failures = 0;
    retryTimer;
    sweep;
    closedBytes = 0;
    stopped = false;
    constructor(deps) {
        this.deps = deps;
        this.sweep = setInterval(() => void this.upload(), 60_000);
        this.sweep.unref();
    }
    /** Bytes of closed files waiting in the spool, as last seen. */
    waitingBytes() {
        return this.closedBytes;
    }
    /** Uploads what is waiting (one run at a time); true when the spool is empty of closed files. */
    upload(deadlineMs) {
        this.running ??= this.run(deadlineMs).finally(() => {
            this.running = undefined;
        });
        return this.running;
    }
    /** Stops the timers, then uploads what is left, retrying until `deadlineMs`; true when nothing is left. */
    async close(deadlineMs) {
        this.stopped = true;
        clearInterval(this.sweep);
        clearTimeout(this.retryTimer);
        await this.running;
        let done = await this.upload(deadlineMs);
        // A store that fails now may answer a moment later: retried with backoff until the deadline.
        for (let attempt = 0; !done && deadlineMs - Date.now() > 200; attempt++) {
            await new Promise((resolve) => setTimeout(resolve, Math.min(250 * 2 ** attempt, deadlineMs - Date.now() - 100)));
            done = await this.upload(deadlineMs);
        }
        if (!done) {
            const left = await this.waiting().catch(() => []);
            this.deps.logger.error('decision archive: files not uploaded before the shutdown timeout stay in the spool for the next start', {
                spool: this.deps.dir,
                files: left.map((f) => f.name),
                destination: this.destination(''),
            });
        }
        return done;
    }
    destination(name) {
        return `s3://${this.deps.location.bucket}/${this.deps.location.prefix}${name}`;
    }
    /** This writer's closed files, oldest first; a plain one only when no gzip is under way. */
    async waiting() {
        const names = await (0, promises_1.readdir)(this.deps.dir);
        const out = [];
        for (const name of names) {
            const parsed = (0, archive_files_1.parseArchiveName)(name);
            if (!parsed || parsed.stem !== this.deps.stem || parsed.closedAt === undefined)
                continue;
            if (!parsed.gzipped && (this.deps.gzipping() || names.includes(`${name}.gz`)))
                continue;
            const info = await (0, promises_1.stat)((0, node_path_1.join)(this.deps.dir, name)).catch(() => undefined);
            if (info)
                out.push({ name, closedAt: parsed.closedAt, bytes: info.size });
        }
        out.sort((a, b) => (a.closedAt < b.closedAt ? -1 : a.closedAt > b.closedAt ? 1 : 0));
        this.closedBytes = out.reduce((sum, f) => sum + f.bytes, 0);
        this.deps.observe.spoolBytes(this.closedBytes);
        return out;
    }
    async run(deadlineMs) {
        let files;
        try {
            files = await this.waiting();
        }
        catch (err) {
            this.deps.logger.error('decision archive: cannot read the spool', {
                spool: this.deps.dir,
                error: err.message,
            });
            return false;
        }
        for (const file of files) {
            if (!(await this.put(file, deadlineMs))) {
                this.scheduleRetry();
                return false;
            }
        }
        this.failures = 0;
        return true;
    }
    async put(file, deadlineMs) {
        const path = (0, node_path_1.join)(this.deps.dir, file.name);
        const key = `${this.deps.location.prefix}${file.name}`;
        try {
            const body = await (0, promises_1.readFile)(path);
            // The SDK is loaded at the first upload, not when the service starts (docs/decisions/0030).
            const { PutObjectCommand } = await Promise.resolve().then(() => __importStar(require('@aws-sdk/client-s3')));
            const abortSignal = deadlineMs === undefined ? undefined : AbortSignal.timeout(Math.max(1, deadlineMs - Date.now()));
            await this.deps.client.send(new PutObjectCommand({
                Bucket: this.deps.location.bucket,
                Key: key,
                Body: body,
                ContentType: file.name.endsWith('.gz') ? 'application/gzip' : 'application/x-ndjson',
            }), { abortSignal });
            await (0, promises_1.unlink)(path);
            this.closedBytes = Math.max(0, this.closedBytes - file.bytes);
            this.deps.observe.spoolBytes(this.closedBytes);
            this.deps.observe.upload('uploaded');
            return true;
        }
        catch (err) {
            this.failures++;
            this.deps.observe.upload('failed');
            this.deps.logger.error('decision archive: upload failed; the file stays in the spool and is tried again', {
                file: file.name,
                destination: this.destination(file.name),
                attempt: this.failures,
                error: describe(err),
            });
            return false;
        }
    }
    scheduleRetry() {
        if (this.stopped)
            return;
        clearTimeout(this.retryTimer);
        const ceiling = Math.min(this.deps.maxBackoffMs ?? 300_000, 1000 * 2 ** Math.min(this.failures - 1, 20));
        const wait = Math.floor(ceiling / 2 + (this.deps.random ?? Math.random)() * (ceiling / 2));
        this.retryTimer = setTimeout(() => void this.upload(), wait);
        this.retryTimer.unref();
    }
}
exports.SpoolUploader = SpoolUploader;
function describe(err) {
    if (!(err instanceof Error))
        return String(err);
    const status = err.$metadata?.httpStatusCode;
    return `${err.name}: ${err.message}${status ? ` (HTTP ${status})` : ''}`;
}
//# sourceMappingURL=spool-uploader.js.map