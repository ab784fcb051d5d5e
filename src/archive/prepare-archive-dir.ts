import { accessSync, constants, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../common/env-values';

/**
 * Makes sure the directory the archive file goes into exists and can be written, at start-up
 * (docs/decisions/0013-decision-archive.md). A directory that does not exist yet is created with its
 * parents, as `mkdir -p` would (a sub-directory of a fresh volume is the usual thing to name); one
 * that cannot be created or written stops start-up with a message naming DECISION_ARCHIVE, rather
 * than every decision failing to be archived later.
 */
export function prepareArchiveDir(path: string): void {
  const dir = dirname(path);
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOTDIR' || code === 'EEXIST'
        ? 'a part of it is a file, not a directory'
        : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
          ? 'it is not writable'
          : (err as Error).message;
    throw new ConfigError(
      `DECISION_ARCHIVE: the archive directory ${dir} cannot be created or written (${why}); mount a writable volume there or name another path`,
    );
  }
}
