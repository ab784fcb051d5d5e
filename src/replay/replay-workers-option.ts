import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { BadInputError } from '../common/bad-input-error';
import type { ArchiveStream } from './archive-sources';
import { WORKER_SCRIPT } from './replay-workers';

/**
 * Below this many archive bytes (as stored: gzipped files count compressed), `--workers auto`
 * decides in the replay's own thread: starting a worker loads the proposed set again, which costs
 * more than it saves on a few thousand decisions. 4 MB gzipped is about 8,000 decisions at 1,000
 * policies.
 */
export const AUTO_WORKERS_FROM_BYTES = 4 * 2 ** 20;

/** At most this many workers with `auto`: each holds a compiled set of its own. */
const AUTO_MAX_WORKERS = 4;

function archiveBytes(streams: readonly ArchiveStream[]): number {
  let total = 0;
  for (const stream of streams)
    for (const file of stream.files) {
      try {
        total += statSync(file.path).size;
      } catch {
        // A file that cannot be read is reported as damaged when replay reaches it.
      }
    }
  return total;
}

/**
 * `--workers`: a whole number of worker threads (0: decide in this thread), or `auto`: one per
 * core (at most 4) for an archive of at least AUTO_WORKERS_FROM_BYTES, none for a smaller one or
 * where no compiled worker script is (replay run from its TypeScript sources, as under jest).
 */
export function replayWorkers(
  value: string,
  streams: readonly ArchiveStream[],
  cores = availableParallelism(),
): number {
  if (value === 'auto')
    return archiveBytes(streams) < AUTO_WORKERS_FROM_BYTES || !existsSync(WORKER_SCRIPT)
      ? 0
      : Math.min(AUTO_MAX_WORKERS, Math.max(1, cores));
  if (!/^\d+$/.test(value) || Number(value) > 64)
    throw new BadInputError(`--workers must be auto or a whole number from 0 to 64, got "${value}"`);
  return Number(value);
}
