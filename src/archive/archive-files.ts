import { basename, dirname, join } from 'node:path';

/**
 * How archive files are named. A writer appends to its open file `<stem>.jsonl`; a closed file is
 * renamed `<stem>-<UTC stamp>.jsonl` and then gzipped to `<stem>-<UTC stamp>.jsonl.gz`. The stamp
 * (`20261123T211400123Z`) sorts as text in time order, so a stream's files read in the order written.
 */
export interface ArchiveName {
  /** The writer's stream: every file of one writer shares it. */
  stem: string;
  /** When the file was closed; undefined for the open file. */
  closedAt?: string;
  gzipped: boolean;
}

const CLOSED = /^(.+)-(\d{8}T\d{9}Z)(?:-(\d+))?\.jsonl(\.gz)?$/;
const OPEN = /^(.+)\.jsonl(\.gz)?$/;

/** The parts of an archive file name, or undefined for a file that is not one (replay skips it). */
export function parseArchiveName(file: string): ArchiveName | undefined {
  const name = basename(file);
  const closed = CLOSED.exec(name);
  if (closed)
    return {
      stem: closed[1],
      closedAt: closed[2] + (closed[3] ? `-${closed[3].padStart(6, '0')}` : ''),
      gzipped: closed[4] !== undefined,
    };
  const open = OPEN.exec(name);
  return open ? { stem: open[1], gzipped: open[2] !== undefined } : undefined;
}

/** The stem of the file a writer appends to: `/data/decisions.jsonl` -> `decisions`. */
export const stemOf = (path: string): string => basename(path).replace(/\.jsonl$/, '');

/** `2026-11-23T21:14:00.123Z` -> `20261123T211400123Z`. */
export const stampOf = (time: Date): string => time.toISOString().replace(/[-:.]/g, '');

/** The name a closed file gets (before gzip); `n` tells apart files closed in the same millisecond. */
export function closedPath(path: string, time: Date, n = 0): string {
  return join(dirname(path), `${stemOf(path)}-${stampOf(time)}${n > 0 ? `-${n}` : ''}.jsonl`);
}
