"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RotatingFile = void 0;
const node_fs_1 = require("node:fs");
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const promises_2 = require("node:stream/promises");
const node_zlib_1 = require("node:zlib");
const archive_files_1 = require("./archive-files");
/**
 * An append-only file closed by size and age: the closed file is renamed with its closing time and
 * gzipped (node:zlib) in the background, then the oldest closed files beyond `maxFiles` go. A file
 * left open by an earlier process is closed the same way before the first write, so every file
 * holds the decisions of one process only. Writes are serialised by the caller (one at a time).
 */
class RotatingFile {
    opts;
    handle;
    size = 0;
    openedAt = 0;
    background = Promise.resolve();
    lastClosed = { ms: -1, n: 0 };
    gzips = 0;
    /** Writes, rotations and close run one after another. */
    chain = Promise.resolve();
    constructor(opts) {
        this.opts = opts;
    }
    serial(step) {
        const next = this.chain.then(step, step);
        this.chain = next.catch(() => undefined);
        return next;
    }
    /** Appends whole lines; rotates first when the file is full or old. Rejects on a write error. */
    write(chunk) {
        return this.serial(() => this.append(chunk));
    }
    async append(chunk) {
        const bytes = Buffer.byteLength(chunk);
        if (this.handle && this.size > 0 && (this.size + bytes > this.opts.maxBytes || this.age() >= this.opts.maxAgeMs))
            await this.rotate();
        if (!this.handle)
            await this.openFile();
        await this.handle.appendFile(chunk);
        this.size += bytes;
    }
    /** Closes the file when it is older than maxAge (called by a timer, so an idle file is closed too). */
    rotateIfOld() {
        return this.serial(async () => {
            if (this.handle && this.size > 0 && this.age() >= this.opts.maxAgeMs)
                await this.rotate();
        });
    }
    /**
     * Closes the open file and waits for gzip work. The file stays open-named (the next process
     * closes it), or with `rotate` is closed now, as a full one is (an S3 archive uploads it).
     */
    close(opts = {}) {
        return this.serial(async () => {
            if (opts.rotate && this.handle && this.size > 0)
                await this.rotate();
            const handle = this.handle;
            this.handle = undefined;
            await handle?.close();
            await this.background;
        });
    }
    /** True while a closed file waits for, or is in, gzip. */
    gzipping() {
        return this.gzips > 0;
    }
    /** Bytes in the open file. */
    openBytes() {
        return this.handle ? this.size : 0;
    }
    age() {
        return this.opts.clock().getTime() - this.openedAt;
    }
    async openFile() {
        if (this.openedAt === 0) {
            // First open by this process: a non-empty file from an earlier one is closed first.
            const earlier = await (0, promises_1.stat)(this.opts.path).catch(() => undefined);
            if (earlier && earlier.size > 0)
                await this.closeFile();
        }
        this.handle = await (0, promises_1.open)(this.opts.path, 'a');
        this.size = 0;
        this.openedAt = this.opts.clock().getTime();
    }
    async rotate() {
        const handle = this.handle;
        this.handle = undefined;
        await handle?.close();
        await this.closeFile();
    }
    /** Renames the open-named file with its closing time, then gzips and prunes in the background. */
    async closeFile() {
        const now = this.opts.clock();
        // Files closed in the same millisecond get -1, -2, ...; a name already on disk is never reused.
        let n = now.getTime() === this.lastClosed.ms ? this.lastClosed.n + 1 : 0;
        const taken = async (file) => (await (0, promises_1.stat)(file).catch(() => undefined)) ?? (await (0, promises_1.stat)(`${file}.gz`).catch(() => undefined));
        while (await taken((0, archive_files_1.closedPath)(this.opts.path, now, n)))
            n++;
        const target = (0, archive_files_1.closedPath)(this.opts.path, now, n);
        this.lastClosed = { ms: now.getTime(), n };
        await (0, promises_1.rename)(this.opts.path, target);
        this.gzips++;
        this.background = this.background
            .then(() => this.gzip(target))
            .finally(() => {
            this.gzips--;
        })
            .then(() => this.prune())
            .then(() => this.opts.onClosed?.());
    }
    async gzip(file) {
        try {
            await (0, promises_2.pipeline)((0, node_fs_1.createReadStream)(file), (0, node_zlib_1.createGzip)(), (0, node_fs_1.createWriteStream)(`${file}.gz`, { flags: 'wx' }));
            await (0, promises_1.unlink)(file);
        }
        catch (err) {
            this.opts.onError(`gzip ${file}`, err);
            await (0, promises_1.unlink)(`${file}.gz`).catch(() => undefined); // A half-written .gz must not shadow the plain file.
        }
    }
    async prune() {
        if (this.opts.maxFiles === 0)
            return;
        const dir = (0, node_path_1.dirname)(this.opts.path);
        const stem = (0, archive_files_1.stemOf)(this.opts.path);
        try {
            const closed = (await (0, promises_1.readdir)(dir))
                .map((name) => ({ name, parsed: (0, archive_files_1.parseArchiveName)(name) }))
                .filter((f) => f.parsed?.stem === stem && f.parsed.closedAt !== undefined)
                .sort((a, b) => ((a.parsed?.closedAt ?? '') < (b.parsed?.closedAt ?? '') ? -1 : 1));
            for (const old of closed.slice(0, Math.max(0, closed.length - this.opts.maxFiles)))
                await (0, promises_1.unlink)((0, node_path_1.join)(dir, old.name));
        }
        catch (err) {
            this.opts.onError(`remove old archive files in ${dir}`, err);
        }
    }
}
exports.RotatingFile = RotatingFile;
//# sourceMappingURL=rotating-file.js.map