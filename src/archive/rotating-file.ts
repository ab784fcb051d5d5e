import { createReadStream, createWriteStream } from 'node:fs';
import { open, readdir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { closedPath, parseArchiveName, stemOf } from './archive-files';

export interface RotatingFileOptions {
  path: string;
  maxBytes: number;
  maxAgeMs: number;
  /** Closed files kept (0 = all); the oldest are removed after each rotation. */
  maxFiles: number;
  clock: () => Date;
  /** A closed file that could not be gzipped or removed: the file stays as it is. */
  onError: (what: string, err: unknown) => void;
  /** Called when a closed file is gzipped (or left plain after a gzip error): the spool uploads it. */
  onClosed?: () => void;
}

/**
 * An append-only file closed by size and age: the closed file is renamed with its closing time and
 * gzipped (node:zlib) in the background, then the oldest closed files beyond `maxFiles` go. A file
 * left open by an earlier process is closed the same way before the first write, so every file
 * holds the decisions of one process only. Writes are serialised by the caller (one at a time).
 */
export class RotatingFile {
  private handle: FileHandle | undefined;
  private size = 0;
  private openedAt = 0;
  private background: Promise<void> = Promise.resolve();
  private lastClosed = { ms: -1, n: 0 };
  private gzips = 0;
  /** Writes, rotations and close run one after another. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: RotatingFileOptions) {}

  private serial<T>(step: () => Promise<T>): Promise<T> {
    const next = this.chain.then(step, step);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Appends whole lines; rotates first when the file is full or old. Rejects on a write error. */
  write(chunk: string): Promise<void> {
    return this.serial(() => this.append(chunk));
  }

  private async append(chunk: string): Promise<void> {
    const bytes = Buffer.byteLength(chunk);
    if (this.handle && this.size > 0 && (this.size + bytes > this.opts.maxBytes || this.age() >= this.opts.maxAgeMs))
      await this.rotate();
    if (!this.handle) await this.openFile();
    await (this.handle as FileHandle).appendFile(chunk);
    this.size += bytes;
  }

  /** Closes the file when it is older than maxAge (called by a timer, so an idle file is closed too). */
  rotateIfOld(): Promise<void> {
    return this.serial(async () => {
      if (this.handle && this.size > 0 && this.age() >= this.opts.maxAgeMs) await this.rotate();
    });
  }

  /**
   * Closes the open file and waits for gzip work. The file stays open-named (the next process
   * closes it), or with `rotate` is closed now, as a full one is (an S3 archive uploads it).
   */
  close(opts: { rotate?: boolean } = {}): Promise<void> {
    return this.serial(async () => {
      if (opts.rotate && this.handle && this.size > 0) await this.rotate();
      const handle = this.handle;
      this.handle = undefined;
      await handle?.close();
      await this.background;
    });
  }

  /** True while a closed file waits for, or is in, gzip. */
  gzipping(): boolean {
    return this.gzips > 0;
  }

  /** Bytes in the open file. */
  openBytes(): number {
    return this.handle ? this.size : 0;
  }

  private age(): number {
    return this.opts.clock().getTime() - this.openedAt;
  }

  private async openFile(): Promise<void> {
    if (this.openedAt === 0) {
      // First open by this process: a non-empty file from an earlier one is closed first.
      const earlier = await stat(this.opts.path).catch(() => undefined);
      if (earlier && earlier.size > 0) await this.closeFile();
    }
    this.handle = await open(this.opts.path, 'a');
    this.size = 0;
    this.openedAt = this.opts.clock().getTime();
  }

  private async rotate(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
    await this.closeFile();
  }

  /** Renames the open-named file with its closing time, then gzips and prunes in the background. */
  private async closeFile(): Promise<void> {
    const now = this.opts.clock();
    // Files closed in the same millisecond get -1, -2, ...; a name already on disk is never reused.
    let n = now.getTime() === this.lastClosed.ms ? this.lastClosed.n + 1 : 0;
    const taken = async (file: string) =>
      (await stat(file).catch(() => undefined)) ?? (await stat(`${file}.gz`).catch(() => undefined));
    while (await taken(closedPath(this.opts.path, now, n))) n++;
    const target = closedPath(this.opts.path, now, n);
    this.lastClosed = { ms: now.getTime(), n };
    await rename(this.opts.path, target);
    this.gzips++;
    this.background = this.background
      .then(() => this.gzip(target))
      .finally(() => {
        this.gzips--;
      })
      .then(() => this.prune())
      .then(() => this.opts.onClosed?.());
  }

  private async gzip(file: string): Promise<void> {
    try {
      await pipeline(createReadStream(file), createGzip(), createWriteStream(`${file}.gz`, { flags: 'wx' }));
      await unlink(file);
    } catch (err) {
      this.opts.onError(`gzip ${file}`, err);
      await unlink(`${file}.gz`).catch(() => undefined); // A half-written .gz must not shadow the plain file.
    }
  }

  private async prune(): Promise<void> {
    if (this.opts.maxFiles === 0) return;
    const dir = dirname(this.opts.path);
    const stem = stemOf(this.opts.path);
    try {
      const closed = (await readdir(dir))
        .map((name) => ({ name, parsed: parseArchiveName(name) }))
        .filter((f) => f.parsed?.stem === stem && f.parsed.closedAt !== undefined)
        .sort((a, b) => ((a.parsed?.closedAt ?? '') < (b.parsed?.closedAt ?? '') ? -1 : 1));
      for (const old of closed.slice(0, Math.max(0, closed.length - this.opts.maxFiles)))
        await unlink(join(dir, old.name));
    } catch (err) {
      this.opts.onError(`remove old archive files in ${dir}`, err);
    }
  }
}
