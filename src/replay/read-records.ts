import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import type { ArchiveRecord } from '../archive/archive-record';
import { checkRecord } from './check-record';
import { textLines } from './text-lines';

/** One line of an archive: a record to replay, or a problem that names where it is. */
export type ArchiveLine =
  | { kind: 'record'; record: ArchiveRecord; where: string }
  | { kind: 'problem'; where: string; message: string };

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

/**
 * The lines of one archive file, streamed (plain or gzipped). A line that is not JSON or not a
 * record of a known format becomes a problem; so does a gzip file cut short. The last line of an
 * open file may be cut short by a crash: reported, and reading goes on with the next file.
 */
export async function* readRecords(path: string): AsyncGenerator<ArchiveLine> {
  let gzip: boolean;
  try {
    gzip = isGzip(path);
  } catch (err) {
    yield { kind: 'problem', where: path, message: `cannot read the file: ${(err as Error).message}` };
    return;
  }
  // Large chunks: far fewer callbacks than the 16 KB defaults (zlib's were a third of replay's time).
  const file = createReadStream(path, { highWaterMark: 1 << 20 });
  const input = gzip ? file.pipe(createGunzip({ chunkSize: 1 << 16 })) : file;
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
  if (failure) yield { kind: 'problem', where: `${path}:${n}`, message: `reading stopped: ${failure.message}` };
}
