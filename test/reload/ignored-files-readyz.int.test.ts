import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process';
import { blockPolicy, readyz, revisionFor, writeSet } from './reload-helpers';

/**
 * The running service with its watcher: a file of POLICY_DIR that is not loaded (`gate.yaml.bak`)
 * shows on /readyz as soon as the watcher sees it, as the log says it, even when the policy set
 * itself is unchanged or rejected; and it goes when the file goes.
 */
const A = { 'gate.yaml': blockPolicy('gate', 'alpha') };
const INVALID = { 'gate.yaml': 'kind: Policy\nname: gate\nrules:\n  - environments:\n      blockd: [alpha]\n' };

describe('files not loaded, on /readyz as the watcher sees them (real server process)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'preflight-ignored-'));
  let server: ServerProcess;
  beforeAll(async () => {
    writeSet(dir, A);
    server = await startServerProcess({ POLICY_DIR: dir, POLICY_RELOAD_DEBOUNCE_MS: '100' });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const bak = `${dir}/gate.yaml.bak:1:1 warning: not loaded, ignored: only *.yaml and *.yml files are policies`;
  const listed = async () => ((await readyz(server.url)).lastLoad?.problems ?? []).filter((p) => p.startsWith(bak));

  it("after start-up, lastLoad is the start-up's, also once the watch's first look found the same files", async () => {
    // That look (start-server.ts, once the watch is up) moves policyFiles.checkedAt past the start-up's load.
    await waitFor(async () => {
      const ready = await readyz(server.url);
      return ready.policyFiles?.checkedAt !== undefined && ready.policyFiles.checkedAt !== ready.lastLoad?.at;
    }, "the watch's first look");
    const ready = await readyz(server.url);
    expect(ready.lastLoad).toMatchObject({ ok: true, trigger: 'startup', revision: revisionFor(A) });
    expect(ready.lastLoad).not.toHaveProperty('unchanged');
  });

  it('shows a file added beside an unchanged set, keeps it while a set is rejected, and drops it once removed', async () => {
    expect(await listed()).toEqual([]);
    writeFileSync(join(dir, 'gate.yaml.bak'), blockPolicy('gate', 'beta'));
    await waitFor(async () => (await listed()).length === 1, 'the .bak file on /readyz');
    expect(server.output()).toContain('policy directory: not loaded, ignored: gate.yaml.bak');
    expect(await readyz(server.url)).toMatchObject({
      revision: revisionFor(A),
      // The attempt that saw the file is the last one, though it loaded nothing again.
      lastLoad: { ok: true, trigger: 'watch', unchanged: true, revision: revisionFor(A) },
    });

    writeSet(dir, INVALID);
    await waitFor(async () => (await readyz(server.url)).lastLoad?.ok === false, 'the invalid set to be rejected');
    const rejected = await readyz(server.url);
    expect(rejected.lastLoad?.problems).toEqual([
      expect.stringMatching(new RegExp(`^${dir}/gate\\.yaml:5:7 rules\\[0\\]\\.environments\\.blockd: `)),
      expect.stringContaining(bak),
    ]);

    rmSync(join(dir, 'gate.yaml.bak'));
    await waitFor(async () => (await listed()).length === 0, 'the .bak file gone from /readyz');
    expect((await readyz(server.url)).lastLoad).toMatchObject({ ok: false, rejectedRevision: revisionFor(INVALID) });
  });
});
