import { stampOf } from '../archive/archive-files';
import type { ArchiveStream } from './archive-sources';
import { readRecords, type ArchiveLine } from './read-records';

/** A stream's lines, file after file; files closed before `since` are not opened (they hold only older decisions). */
async function* streamLines(stream: ArchiveStream, since: Date | undefined): AsyncGenerator<ArchiveLine> {
  const from = since && stampOf(since);
  for (const file of stream.files) {
    if (from !== undefined && file.closedAt !== undefined && file.closedAt.slice(0, from.length) < from) continue;
    yield* readRecords(file.path);
  }
}

const timeOf = (line: ArchiveLine) => (line.kind === 'record' ? line.record.at : '');

/**
 * Every line of the archive, the streams of several writers merged in decision time order (each
 * stream is read in the order it was written; ISO times compare as text). Problems come as soon as
 * they are met. Each stream holds one file open, read ahead by at most one chunk: memory grows
 * with the number of writers, not with the archive.
 */
export function archiveLines(streams: readonly ArchiveStream[], since?: Date): AsyncGenerator<ArchiveLine> {
  return mergeByTime(
    streams.map((s) => streamLines(s, since)),
    timeOf,
  );
}

/**
 * Several ordered sequences merged by `timeOf` (ISO times, '' for what comes as soon as met): each
 * time, the head with the earliest time, the first reader's on a tie. Holds one head per reader.
 */
export async function* mergeByTime<T>(
  readers: ReadonlyArray<AsyncIterator<T>>,
  timeOf: (item: T) => string,
): AsyncGenerator<T> {
  const heads: Array<T | undefined> = [];
  for (const reader of readers) heads.push(await head(reader));
  for (;;) {
    let pick = -1;
    for (let i = 0; i < heads.length; i++) {
      const item = heads[i];
      if (item === undefined) continue;
      if (pick === -1 || timeOf(item) < timeOf(heads[pick] as T)) pick = i;
    }
    if (pick === -1) return;
    yield heads[pick] as T;
    heads[pick] = await head(readers[pick]);
  }
}

async function head<T>(reader: AsyncIterator<T>): Promise<T | undefined> {
  const next = await reader.next();
  return next.done ? undefined : next.value;
}
