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
 * they are met. Each stream holds one file open, read ahead by at most readline's buffer (about a
 * thousand lines): memory grows with the number of writers, not with the archive.
 */
export async function* archiveLines(streams: readonly ArchiveStream[], since?: Date): AsyncGenerator<ArchiveLine> {
  const readers = streams.map((s) => streamLines(s, since));
  const heads: Array<ArchiveLine | undefined> = [];
  for (const reader of readers) heads.push((await reader.next()).value ?? undefined);
  for (;;) {
    let pick = -1;
    for (let i = 0; i < heads.length; i++) {
      const head = heads[i];
      if (head === undefined) continue;
      if (pick === -1 || timeOf(head) < timeOf(heads[pick] as ArchiveLine)) pick = i;
    }
    if (pick === -1) return;
    yield heads[pick] as ArchiveLine;
    heads[pick] = (await readers[pick].next()).value ?? undefined;
  }
}
