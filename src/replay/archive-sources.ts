import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArchiveName } from '../archive/archive-files';
import { BadInputError } from '../common/bad-input-error';

/** The files one writer wrote, oldest first (closed files by closing time, then the open one). */
export interface ArchiveStream {
  name: string;
  files: Array<{ path: string; closedAt?: string }>;
}

const order = (a: { closedAt?: string }, b: { closedAt?: string }) => {
  if (a.closedAt === b.closedAt) return 0;
  if (a.closedAt === undefined) return 1;
  if (b.closedAt === undefined) return -1;
  return a.closedAt < b.closedAt ? -1 : 1;
};

/**
 * What `--archive` names: one file (plain or gzipped, any name), or a directory whose archive files
 * (`*.jsonl`, `*.jsonl.gz`) are grouped by writer. Other files in the directory are ignored.
 * `readDir` lists a directory (injected by tests: one that cannot be read, whoever runs them).
 */
export function archiveSources(path: string, readDir: (dir: string) => string[] = readdirSync): ArchiveStream[] {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new BadInputError(
      `archive ${path} ${code === 'ENOENT' ? 'does not exist' : `cannot be read: ${(err as Error).message}`}`,
    );
  }
  if (!isDir) return [{ name: path, files: [{ path }] }];
  const streams = new Map<string, ArchiveStream>();
  let names: string[];
  try {
    names = readDir(path).sort();
  } catch (err) {
    // A directory that cannot be listed (no permission to read it) is a usage error, as a missing one.
    throw new BadInputError(`archive directory ${path} cannot be read: ${(err as Error).message}`);
  }
  for (const name of names) {
    const parsed = parseArchiveName(name);
    if (!parsed) continue;
    const stream = streams.get(parsed.stem) ?? { name: join(path, parsed.stem), files: [] };
    // A closed file next to its .gz is still being gzipped (the .gz is not whole yet): read the plain one.
    if (parsed.gzipped && parsed.closedAt !== undefined && names.includes(name.replace(/\.gz$/, ''))) continue;
    stream.files.push({ path: join(path, name), closedAt: parsed.closedAt });
    streams.set(parsed.stem, stream);
  }
  if (streams.size === 0)
    throw new BadInputError(`archive directory ${path} holds no archive files (*.jsonl, *.jsonl.gz)`);
  for (const stream of streams.values()) stream.files.sort(order);
  return [...streams.values()];
}
