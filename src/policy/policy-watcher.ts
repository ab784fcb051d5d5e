import { watch, type FSWatcher } from 'chokidar';

export interface PolicyWatcher {
  /** Resolves once the directory is being watched. */
  ready: Promise<void>;
  close(): Promise<void>;
}

export interface WatchOptions {
  /** Quiet time after the last change before `onChange` runs: an editor or `kubectl` writes in bursts. */
  debounceMs: number;
  onError(err: unknown): void;
}

/**
 * Calls `onChange` once per burst of changes below `dir`. Hidden entries are watched too: a
 * Kubernetes ConfigMap mount changes by atomically renaming a new `..data` symlink into place,
 * and the top-level file symlinks themselves never change. Symlinks are not followed, so the swap
 * is seen as a change of `..data`, whatever it points to. The caller decides, by content, whether
 * anything really changed.
 */
export function watchPolicyDir(dir: string, onChange: () => void, opts: WatchOptions): PolicyWatcher {
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const schedule = () => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (!closed) onChange();
    }, opts.debounceMs);
  };
  const watcher: FSWatcher = watch(dir, { ignoreInitial: true, followSymlinks: false, atomic: false, persistent: true });
  watcher.on('all', schedule);
  watcher.on('error', opts.onError);
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await watcher.close();
    },
  };
}
