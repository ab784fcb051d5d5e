import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import type { ArchiveRecord } from '../archive/archive-record';
import { checkRecord } from './check-record';
import { gzipMembers } from './gzip-members';
import { blockLines, lineBlocks, type ArchiveBlock } from './archive-blocks';

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

/** The end of a file that could not be read to its end: its lines after `line` are lost. */
export type DamagedEnd = Extract<ArchiveLine, { kind: 'damaged' }>;

/**
 * The lines of one archive file, streamed (plain or gzipped). A line that is not JSON or not a
 * record of a known format becomes a problem. The last line of an open file may be cut short by a
 * crash: reported, and reading goes on with the next file. A file that cannot be read to its end
 * (a gzip file cut short or corrupt) ends with `damaged`, naming the last whole line read.
 */
export async function* readRecords(path: string): AsyncGenerator<ArchiveLine> {
  for await (const block of readBlocks(path)) {
    if (!('bytes' in block)) {
      yield block;
      continue;
    }
    const lines = blockLines(block.bytes);
    for (let i = block.skip; i < lines.length; i++) {
      const read = archiveLine(block.file, block.first + i, lines[i]);
      if (read) yield read;
    }
  }
}

/**
 * The whole lines of one archive file as blocks of bytes (archive-blocks.ts), plain or gzipped,
 * each line once; a file that cannot be read to its end ends with `damaged`, naming the last whole
 * line handed out. What readRecords reads, and what replay's worker threads are given.
 */
export async function* readBlocks(path: string): AsyncGenerator<ArchiveBlock | DamagedEnd> {
  let gzip: boolean;
  try {
    gzip = isGzip(path);
  } catch (err) {
    yield { kind: 'damaged', file: path, line: 0, message: `the file cannot be read (${(err as Error).message})` };
    return;
  }
  // Large chunks: far fewer callbacks than the 16 KB defaults (zlib's were a third of replay's time).
  const file = createReadStream(path, { highWaterMark: 1 << 20 });
  const gunzip = gzip ? createGunzip({ chunkSize: 1 << 18 }) : undefined;
  const input = gunzip ? file.pipe(gunzip) : file;
  // pipe() does not pass the file's error on to gunzip: it ends the reading there, and says why.
  if (input !== file) file.on('error', (err) => input.destroy(err));
  const reader = lineBlocks(path, input);
  try {
    yield* reader.blocks;
  } catch (err) {
    const failure = err as NodeJS.ErrnoException;
    const size = file.bytesRead;
    const n = reader.lines();
    if (gzip && failure.code === 'Z_DATA_ERROR') {
      yield* readMembers(path, n, failure, gunzip?.bytesWritten ?? size);
      return;
    }
    const message = damage(failure, gzip, n, gunzip?.bytesWritten ?? size, size);
    yield { kind: 'damaged', file: path, line: n, message };
  }
}

/** A line of a file as an ArchiveLine: a record, or a problem naming it; nothing for a blank line. */
export function archiveLine(path: string, n: number, line: string): ArchiveLine | undefined {
  if (line.trim() === '') return undefined;
  const where = `${path}:${n}`;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return {
      kind: 'problem',
      where,
      message: `not JSON (${(err as Error).message}); a line cut short by a crash or a full disk?`,
    };
  }
  const checked = checkRecord(value);
  return checked.ok
    ? { kind: 'record', record: checked.record, where }
    : { kind: 'problem', where, message: checked.message };
}

/**
 * gunzip failed with a data error after `read` lines (whose output it may have dropped): the file
 * is read again member by member (gzip-members.ts), its lines after `read` handed out. Data after
 * the last whole member (`gzip -dc` reads the lines before it too) is named as trailing data; a
 * corrupt member as gunzip found it (`consumed`: the bytes it had read).
 */
async function* readMembers(
  path: string,
  read: number,
  failure: NodeJS.ErrnoException,
  consumed: number,
): AsyncGenerator<ArchiveBlock | DamagedEnd> {
  const size = statSync(path).size;
  const members = gzipMembers(path, size);
  const reader = lineBlocks(path, members.chunks);
  let n: number;
  try {
    for await (const block of reader.blocks) {
      // The lines handed out before gunzip failed are not handed out again.
      if (reader.lines() <= read) continue;
      yield { ...block, skip: Math.max(0, read - block.first + 1) };
    }
  } catch {
    // A corrupt member: told as gunzip found it.
    n = reader.lines();
    const message = damage(failure, true, n, consumed, size);
    yield { kind: 'damaged', file: path, line: n, message };
    return;
  }
  n = reader.lines();
  const { end, trailing } = members.end();
  // Not even a first whole member (a bad header): corrupt, as gunzip found it.
  if (trailing && end === 0)
    yield { kind: 'damaged', file: path, line: n, message: damage(failure, true, n, consumed, size) };
  else if (trailing)
    yield {
      kind: 'damaged',
      file: path,
      line: n,
      message: `the gzip file has trailing data after its compressed stream: bytes ${end + 1}-${size} of ${size} are not gzip data (${failure.message}); ${n === 0 ? 'no line came before them' : `lines 1-${n} were read`}, the trailing data cannot be`,
    };
}
