import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watchPolicyDir, type PolicyWatcher } from '../../src/policy/runtime/policy-watcher';
import { blockPolicy, configMapDir } from './reload-helpers';

// The watch of POLICY_DIR, without a server: every kind of change below the directory reaches
// onChange, with one watch per directory (docs/decisions/0036-watch-directories-not-files.md).

/** The inotify watches this process holds (Linux: the `inotify wd:` lines of its inotify descriptors). */
function inotifyWatches(): number {
  let watches = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // the descriptor readdir itself used, closed since
    }
    if (target !== 'anon_inode:inotify') continue;
    watches += readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('inotify wd:')).length;
  }
  return watches;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A watch of `dir` that counts its onChange calls; `after(change)` resolves once `change` was followed by a call. */
async function watching(dir: string) {
  let calls = 0;
  const errors: unknown[] = [];
  const watcher: PolicyWatcher = watchPolicyDir(dir, () => calls++, {
    debounceMs: 30,
    onError: (err) => errors.push(err),
    checkEveryMs: 60_000,
  });
  await watcher.ready;
  return {
    watcher,
    errors,
    async after(change: () => void): Promise<boolean> {
      // What an earlier change still has in flight (chokidar reading a directory again) lands before this one.
      await sleep(150);
      const before = calls;
      change();
      for (let waited = 0; waited < 5000 && calls === before; waited += 10) await sleep(10);
      return calls > before;
    },
  };
}

const linux = process.platform === 'linux' ? describe : describe.skip;

linux('watchPolicyDir (Linux inotify)', () => {
  let root: string;
  let watch: Awaited<ReturnType<typeof watching>> | undefined;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'preflight-watch-'));
  });
  afterEach(async () => {
    await watch?.watcher.close();
    watch = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  it('holds one watch per directory, none per file', async () => {
    mkdirSync(join(root, 'team-a'));
    for (let i = 0; i < 20; i++) {
      writeFileSync(join(root, `p${i}.yaml`), blockPolicy(`p${i}`, 'prod'));
      writeFileSync(join(root, 'team-a', `q${i}.yaml`), blockPolicy(`q${i}`, 'prod'));
    }
    const before = inotifyWatches();
    watch = await watching(root);
    expect(inotifyWatches() - before).toBe(2);
  });

  it('sees a file changed, added, renamed and removed, at the top and in a nested directory', async () => {
    mkdirSync(join(root, 'team-a', 'deep'), { recursive: true });
    writeFileSync(join(root, 'top.yaml'), blockPolicy('top', 'prod'));
    writeFileSync(join(root, 'team-a', 'deep', 'nested.yaml'), blockPolicy('nested', 'prod'));
    watch = await watching(root);
    const w = watch;
    for (const dir of [root, join(root, 'team-a', 'deep')]) {
      const file = join(dir, readdirSync(dir).find((f) => f.endsWith('.yaml')) as string);
      expect([dir, 'changed', await w.after(() => appendFileSync(file, '# edited\n'))]).toEqual([dir, 'changed', true]);
      expect([
        dir,
        'added',
        await w.after(() => writeFileSync(join(dir, 'new.yaml'), blockPolicy('new', 'dev'))),
      ]).toEqual([dir, 'added', true]);
      expect([
        dir,
        'renamed',
        await w.after(() => renameSync(join(dir, 'new.yaml'), join(dir, 'renamed.yaml'))),
      ]).toEqual([dir, 'renamed', true]);
      expect([dir, 'removed', await w.after(() => rmSync(join(dir, 'renamed.yaml')))]).toEqual([dir, 'removed', true]);
    }
    expect(watch.errors).toEqual([]);
  });

  it('sees a file changed in a directory made after the watch started', async () => {
    writeFileSync(join(root, 'top.yaml'), blockPolicy('top', 'prod'));
    watch = await watching(root);
    const later = join(root, 'team-b');
    expect(await watch.after(() => mkdirSync(later))).toBe(true);
    expect(await watch.after(() => writeFileSync(join(later, 'b.yaml'), blockPolicy('b', 'prod')))).toBe(true);
    expect(await watch.after(() => appendFileSync(join(later, 'b.yaml'), '# edited\n'))).toBe(true);
  });

  it('sees a ConfigMap publish a new version by renaming its ..data symlink', async () => {
    const mount = configMapDir(join(root, 'policies'), { 'gate.yaml': blockPolicy('gate', 'alpha') });
    watch = await watching(join(root, 'policies'));
    expect(await watch.after(() => mount.swap({ 'gate.yaml': blockPolicy('gate', 'beta') }))).toBe(true);
    expect(await watch.after(() => mount.swap({ 'gate.yaml': blockPolicy('gate', 'gamma') }))).toBe(true);
  });
});
