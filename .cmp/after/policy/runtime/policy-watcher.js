"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.watchPolicyDir = watchPolicyDir;
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const chokidar_1 = require("chokidar");
/**
 * Device, inode and birth time of the directory at `dir` (symlinks followed), or undefined when
 * there is none. The birth time matters: a directory removed and made again often gets the same
 * inode back (ext4 does).
 */
function identity(dir) {
    try {
        const st = (0, node_fs_1.statSync)(dir);
        return st.isDirectory() ? `${st.dev}:${st.ino}:${st.birthtimeMs}` : undefined;
    }
    catch {
        return undefined;
    }
}
/**
 * Calls `onChange` once per burst of changes below `dir`. Only directories are watched, one watch
 * each (docs/decisions/0036-watch-directories-not-files.md): on Linux a directory's inotify watch
 * reports every change to its entries (a file written, added, removed or renamed, a symlink
 * swapped), which chokidar passes on as `raw` events; a watch per file cost about 2 KB of heap
 * each (20 MB for 10,000 policies) and one of the node's inotify watches each. chokidar keeps the
 * tree of directories watched as directories come and go. Hidden directories are watched too: a
 * Kubernetes ConfigMap mount changes by atomically renaming a new `..data` symlink into place, and
 * the top-level file symlinks themselves never change. Symlinks are not followed, so the swap is
 * seen as a change of `..data`, whatever it points to. The caller decides, by content, whether
 * anything really changed.
 *
 * A watch is tied to one directory, not to a path: when `dir` is removed (a volume unmounted, a
 * deploy script's `rm -rf` and copy) the watch would never fire again. So the path is looked at
 * every `checkEveryMs`: when the directory is gone, `onChange` runs (the reload then reports it
 * missing); when a directory is there again, or another one replaced it, the watch starts over on
 * it and `onChange` runs.
 */
function watchPolicyDir(dir, onChange, opts) {
    let timer;
    let closed = false;
    const schedule = () => {
        if (closed)
            return;
        if (timer)
            clearTimeout(timer);
        timer = setTimeout(() => {
            timer = undefined;
            if (!closed)
                onChange();
        }, opts.debounceMs);
    };
    const root = (0, node_path_1.resolve)(dir);
    let watched = identity(dir);
    let watcher;
    const start = () => {
        const w = (0, chokidar_1.watch)(dir, {
            ignoreInitial: true,
            followSymlinks: false,
            atomic: false,
            persistent: true,
            // Called once without stats (before the stat), then with them: everything but a directory gets no watch of its own.
            ignored: (_path, stats) => stats !== undefined && !stats.isDirectory(),
        });
        // What a directory's watch saw happen to one of its entries; `all`: a directory added or removed.
        w.on('raw', schedule);
        w.on('all', schedule);
        // The directory itself removed: forget it, so that one created again (even on the same inode) is watched anew.
        w.on('unlinkDir', (path) => {
            if ((0, node_path_1.resolve)(path) === root)
                watched = undefined;
        });
        w.on('error', opts.onError);
        watcher = w;
        return new Promise((done) => w.once('ready', () => done()));
    };
    const stop = () => {
        const w = watcher;
        watcher = undefined;
        return w?.close().catch(opts.onError);
    };
    const check = () => {
        if (closed)
            return;
        const now = identity(dir);
        if (now === watched)
            return;
        const why = watched === undefined ? 'back' : 'replaced';
        watched = now;
        void stop();
        if (now !== undefined) {
            opts.onRewatch?.(why);
            void start().then(schedule);
        }
        else {
            schedule();
        }
    };
    const poll = setInterval(check, opts.checkEveryMs ?? 1000);
    poll.unref();
    const ready = watched === undefined ? Promise.resolve() : start();
    return {
        ready,
        async close() {
            closed = true;
            clearInterval(poll);
            if (timer)
                clearTimeout(timer);
            await stop();
        },
    };
}
//# sourceMappingURL=policy-watcher.js.map