import { readFile, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Logger } from '../common/logger';
import { parseArchiveName } from './archive-files';
import type { S3Location } from './s3-location';

export interface SpoolUploaderDeps {
  /** The spool directory and the writer's stem: only this writer's closed files are uploaded. */
  dir: string;
  stem: string;
  location: S3Location;
  client: Pick<S3Client, 'send'>;
  logger: Logger;
  /** Counts each upload: `uploaded` or `failed`; `spoolBytes` after each look at the spool. */
  observe: { upload(outcome: 'uploaded' | 'failed'): void; spoolBytes(bytes: number): void };
  /** True while the rotating file still gzips: a plain closed file may then be half way to its .gz. */
  gzipping: () => boolean;
  random?: () => number;
  /** Longest wait between retries (default 5 min). */
  maxBackoffMs?: number;
}

interface SpoolFile {
  name: string;
  closedAt: string;
  bytes: number;
}

/**
 * Uploads the closed archive files of the spool to `s3://bucket/prefix<file name>`, oldest first,
 * and removes each once S3 has it. A failed upload leaves the file (and the newer ones) in the
 * spool and is tried again with exponential backoff and jitter (1 s doubling to 5 min); a timer also
 * looks every minute, which picks up files an earlier process left. Object names carry the writer's
 * host and the closing time, so replicas never overwrite each other.
 */
export class SpoolUploader {
  private running: Promise<boolean> | undefined;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly sweep: NodeJS.Timeout;
  private closedBytes = 0;
  private stopped = false;

  constructor(private readonly deps: SpoolUploaderDeps) {
    this.sweep = setInterval(() => void this.upload(), 60_000);
    this.sweep.unref();
  }

  /** Bytes of closed files waiting in the spool, as last seen. */
  waitingBytes(): number {
    return this.closedBytes;
  }

  /** Uploads what is waiting (one run at a time); true when the spool is empty of closed files. */
  upload(deadlineMs?: number): Promise<boolean> {
    this.running ??= this.run(deadlineMs).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Stops the timers, then uploads what is left, retrying until `deadlineMs`; true when nothing is left. */
  async close(deadlineMs: number): Promise<boolean> {
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
      this.deps.logger.error(
        'decision archive: files not uploaded before the shutdown timeout stay in the spool for the next start',
        {
          spool: this.deps.dir,
          files: left.map((f) => f.name),
          destination: this.destination(''),
        },
      );
    }
    return done;
  }

  private destination(name: string): string {
    return `s3://${this.deps.location.bucket}/${this.deps.location.prefix}${name}`;
  }

  /** This writer's closed files, oldest first; a plain one only when no gzip is under way. */
  private async waiting(): Promise<SpoolFile[]> {
    const names = await readdir(this.deps.dir);
    const out: SpoolFile[] = [];
    for (const name of names) {
      const parsed = parseArchiveName(name);
      if (!parsed || parsed.stem !== this.deps.stem || parsed.closedAt === undefined) continue;
      if (!parsed.gzipped && (this.deps.gzipping() || names.includes(`${name}.gz`))) continue;
      const info = await stat(join(this.deps.dir, name)).catch(() => undefined);
      if (info) out.push({ name, closedAt: parsed.closedAt, bytes: info.size });
    }
    out.sort((a, b) => (a.closedAt < b.closedAt ? -1 : a.closedAt > b.closedAt ? 1 : 0));
    this.closedBytes = out.reduce((sum, f) => sum + f.bytes, 0);
    this.deps.observe.spoolBytes(this.closedBytes);
    return out;
  }

  private async run(deadlineMs?: number): Promise<boolean> {
    let files: SpoolFile[];
    try {
      files = await this.waiting();
    } catch (err) {
      this.deps.logger.error('decision archive: cannot read the spool', {
        spool: this.deps.dir,
        error: (err as Error).message,
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

  private async put(file: SpoolFile, deadlineMs?: number): Promise<boolean> {
    const path = join(this.deps.dir, file.name);
    const key = `${this.deps.location.prefix}${file.name}`;
    try {
      const body = await readFile(path);
      // The SDK is loaded at the first upload, not when the service starts (docs/decisions/0030).
      const { PutObjectCommand } = await import('@aws-sdk/client-s3');
      const abortSignal =
        deadlineMs === undefined ? undefined : AbortSignal.timeout(Math.max(1, deadlineMs - Date.now()));
      await this.deps.client.send(
        new PutObjectCommand({
          Bucket: this.deps.location.bucket,
          Key: key,
          Body: body,
          ContentType: file.name.endsWith('.gz') ? 'application/gzip' : 'application/x-ndjson',
        }),
        { abortSignal },
      );
      await unlink(path);
      this.closedBytes = Math.max(0, this.closedBytes - file.bytes);
      this.deps.observe.spoolBytes(this.closedBytes);
      this.deps.observe.upload('uploaded');
      return true;
    } catch (err) {
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

  private scheduleRetry(): void {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    const ceiling = Math.min(this.deps.maxBackoffMs ?? 300_000, 1000 * 2 ** Math.min(this.failures - 1, 20));
    const wait = Math.floor(ceiling / 2 + (this.deps.random ?? Math.random)() * (ceiling / 2));
    this.retryTimer = setTimeout(() => void this.upload(), wait);
    this.retryTimer.unref();
  }
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return `${err.name}: ${err.message}${status ? ` (HTTP ${status})` : ''}`;
}
