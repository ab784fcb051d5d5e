import { type Dirent, readdirSync, statSync } from 'node:fs';

/** The entries of a directory, sorted by name (as `readdirSync(dir).sort()` sorts them). */
export function entriesOf(dir: string): Dirent[] {
  return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * What an entry is, following a symbolic link (a Kubernetes ConfigMap mount reaches its files
 * through links) and only then asking the file system: a directory of 10,000 policies is walked
 * without 10,000 `stat` calls. Other kinds (sockets, devices) and a link to nothing are `other`.
 */
export function kindOf(entry: Dirent, full: string): 'file' | 'directory' | 'other' {
  if (entry.isDirectory()) return 'directory';
  if (entry.isFile()) return 'file';
  if (!entry.isSymbolicLink()) return 'other';
  const stat = statSync(full, { throwIfNoEntry: false });
  return stat?.isDirectory() ? 'directory' : stat?.isFile() ? 'file' : 'other';
}
