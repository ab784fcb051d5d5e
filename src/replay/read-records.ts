import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import type { ArchiveRecord } from '../archive/archive-record';
import { checkRecord } from './check-record';
import { textLines } from './text-lines';

/**
 * One line of an archive: a record to replay, or a problem that names where it is; or the end of a
 * file that could not be read to its end (`damaged`: a gzip file cut short or corrupt, a read error),
 * whose lines after `line` are lost.
 */
export type ArchiveLine =
  | { kind: 'record'; record: ArchiveRecord; where: string }
  | { kind: 'problem'; where: string; message: string }
  | { kind: 'damaged'; file: string; line: number; message: string };

/** Whether a file starts with gzip's magic bytes (the name is not trusted). */
function isGzip(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

const readUpTo = (lines: number) =>
  lines === 0 ? 'no line of it could be read' : `lines 1-${lines} were read, the rest of the file cannot be`;

/** Why a file could not be read to its end: zlib's codes say cut short or corrupt, with where the reading stopped. */
function damage(err: NodeJS.ErrnoException, gzip: boolean, lines: number, consumed: number, size: number): string {
  if (!gzip) return `the file could not be read to its end (${err.message}); ${readUpTo(lines)}`;
  const how =
    err.code === 'Z_BUF_ERROR'
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
export async function* readRecords(path: string): AsyncGenerator<ArchiveLine> {
  let gzip: boolean;
  try {
    gzip = isGzip(path);
  } catch (err) {
    yield { kind: 'damaged', file: path, line: 0, message: `the file cannot be read (${(err as Error).message})` };
    return;
  }
  // Large chunks: far fewer callbacks than the 16 KB defaults (zlib's were a third of replay's time).
  const file = createReadStream(path, { highWaterMark: 1 << 20 });
  const gunzip = gzip ? createGunzip({ chunkSize: 1 << 16 }) : undefined;
  const input = gunzip ? file.pipe(gunzip) : file;
  // pipe() does not pass the file's error on to gunzip: it ends the reading there, and says why.
  if (input !== file) file.on('error', (err) => input.destroy(err));
  let failure: Error | undefined;
  let n = 0;
  try {
    for await (const line of textLines(input)) {
      n++;
      if (line.trim() === '') continue;
      const where = `${path}:${n}`;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (err) {
        yield {
          kind: 'problem',
          where,
          message: `not JSON (${(err as Error).message}); a line cut short by a crash or a full disk?`,
        };
        continue;
      }
      const checked = checkRecord(value);
      yield checked.ok
        ? { kind: 'record', record: checked.record, where }
        : { kind: 'problem', where, message: checked.message };
    }
  } catch (err) {
    failure ??= err as Error;
  }
  if (failure) {
    const size = file.bytesRead;
    const message = damage(failure as NodeJS.ErrnoException, gzip, n, gunzip?.bytesWritten ?? size, size);
    yield { kind: 'damaged', file: path, line: n, message };
  }
}
