import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process';
import { post } from './post';
import { blockPolicy, configMapDir, metric, preflightIn, readyz, revisionFor, writeSet } from './reload-helpers';

const A = { 'gate.yaml': blockPolicy('gate', 'alpha') };
const B = { 'gate.yaml': blockPolicy('gate', 'beta') };
const C = { 'gate.yaml': blockPolicy('gate', 'gamma') };
const INVALID = { 'gate.yaml': 'kind: Policy\nname: gate\nrules:\n  - nosuchrule: {}\n' };

const status = async (url: string, env: string) => (await post(`${url}/preflight`, preflightIn(env))).status;
const successes = (url: string) => metric(url, 'preflight_policy_reloads_total{result="success"}');

describe('SIGHUP reloads the policy directory (watching off)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'preflight-hup-'));
  let server: ServerProcess;
  beforeAll(async () => {
    writeSet(dir, A);
    // A short debounce: were the directory watched anyway, the change below would be loaded long
    // before the test looks.
    server = await startServerProcess({ POLICY_DIR: dir, POLICY_WATCH: 'false', POLICY_RELOAD_DEBOUNCE_MS: '50' });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the set in use until SIGHUP, then swaps to the new one', async () => {
    writeSet(dir, B);
    // Give a watcher (which must not exist) far more than its 50 ms debounce to pick B up.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await readyz(server.url)).revision).toBe(revisionFor(A));
    expect(await status(server.url, 'alpha')).toBe(403);
    server.child.kill('SIGHUP');
    await waitFor(async () => (await readyz(server.url)).revision === revisionFor(B), 'SIGHUP to load set B');
    expect(await readyz(server.url)).toMatchObject({ lastLoad: { ok: true, trigger: 'SIGHUP' } });
    expect(await status(server.url, 'alpha')).toBe(200);
    expect(await status(server.url, 'beta')).toBe(403);
    expect(await successes(server.url)).toBe(2);
  });

  it('does not count a SIGHUP when nothing changed', async () => {
    const skipped = () => server.output().split('policy reload skipped: content unchanged').length - 1;
    const before = skipped();
    server.child.kill('SIGHUP');
    await waitFor(async () => skipped() > before, 'the unchanged reload to be logged');
    expect(await successes(server.url)).toBe(2);
    expect(await metric(server.url, 'preflight_policy_reloads_total{result="failure"}')).toBe(0);
  });

  it('rejects an invalid set on SIGHUP and keeps serving the old one', async () => {
    writeSet(dir, INVALID);
    server.child.kill('SIGHUP');
    await waitFor(async () => (await readyz(server.url)).lastLoad?.ok === false, 'SIGHUP to reject the set');
    const ready = await readyz(server.url);
    expect(ready).toMatchObject({
      status: 'ready',
      revision: revisionFor(B),
      lastLoad: { trigger: 'SIGHUP', rejectedRevision: revisionFor(INVALID) },
    });
    expect(ready.lastLoad?.problems).toEqual([
      expect.stringMatching(
        new RegExp(`^${dir}/gate\\.yaml:4:5 rules\\[0\\]\\.nosuchrule: unknown rule kind "nosuchrule"`),
      ),
    ]);
    expect(await status(server.url, 'beta')).toBe(403);
  });
});

describe('a Kubernetes ConfigMap mount: atomic ..data symlink swap', () => {
  const root = join(mkdtempSync(join(tmpdir(), 'preflight-cm-')), 'policies');
  const mount = configMapDir(root, A);
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({ POLICY_DIR: root, POLICY_RELOAD_DEBOUNCE_MS: '100' });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(join(root, '..'), { recursive: true, force: true });
  });

  it('serves the files reached through the top-level symlinks', async () => {
    expect(await readyz(server.url)).toMatchObject({
      revision: revisionFor(A),
      policies: 2,
      builtInPolicies: ['emergency-stop (built-in)'],
    });
    expect(await status(server.url, 'alpha')).toBe(403);
  });

  it('picks up a new version published by renaming ..data', async () => {
    mount.swap(B);
    await waitFor(
      async () => (await readyz(server.url)).revision === revisionFor(B),
      'the swapped ConfigMap to be loaded',
    );
    expect(await status(server.url, 'alpha')).toBe(200);
    expect(await status(server.url, 'beta')).toBe(403);
  });

  it('rejects an invalid version, keeps serving, and loads the next valid one', async () => {
    mount.swap(INVALID);
    await waitFor(async () => (await readyz(server.url)).lastLoad?.ok === false, 'the invalid version to be rejected');
    expect(await readyz(server.url)).toMatchObject({
      revision: revisionFor(B),
      lastLoad: { problems: [expect.stringMatching(new RegExp(`^${root}/gate\\.yaml:4:5 `))] },
    });
    expect(await status(server.url, 'beta')).toBe(403);

    mount.swap(C);
    await waitFor(
      async () => (await readyz(server.url)).revision === revisionFor(C),
      'the next valid version to be loaded',
    );
    expect(await status(server.url, 'gamma')).toBe(403);
    expect(await status(server.url, 'beta')).toBe(200);
    expect(await metric(server.url, 'preflight_policy_reloads_total{result="success"}')).toBe(3);
    expect(await metric(server.url, 'preflight_policy_reloads_total{result="failure"}')).toBe(1);
  });
});
