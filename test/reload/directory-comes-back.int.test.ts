import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process';
import { post } from './post';
import { blockPolicy, configMapDir, metric, preflightIn, readyz, revisionFor, writeSet } from './reload-helpers';

const A = { 'gate.yaml': blockPolicy('gate', 'alpha') };
const B = { 'gate.yaml': blockPolicy('gate', 'beta') };
const C = { 'gate.yaml': blockPolicy('gate', 'gamma') };
const D = { 'gate.yaml': blockPolicy('gate', 'delta') };
const INVALID = { 'gate.yaml': 'kind: Policy\nname: gate\nrules:\n  - nosuchrule: {}\n' };

const status = async (url: string, env: string) => (await post(`${url}/preflight`, preflightIn(env))).status;
const inSync = (url: string) => metric(url, 'preflight_policy_files_in_sync');
const serving = (url: string, files: Record<string, string>) =>
  waitFor(
    async () => (await readyz(url)).revision === revisionFor(files),
    `revision ${revisionFor(files)} to be served`,
  );
type Files = { inSync: boolean; reason?: string; diskRevision?: string };
const policyFiles = async (url: string) => ((await readyz(url)) as unknown as { policyFiles: Files }).policyFiles;

describe('the watch survives POLICY_DIR going away and coming back (real server process)', () => {
  const root = mkdtempSync(join(tmpdir(), 'preflight-gone-'));
  const dir = join(root, 'policies');
  let server: ServerProcess;
  beforeAll(async () => {
    mkdirSync(dir);
    writeSet(dir, A);
    server = await startServerProcess({ POLICY_DIR: dir, POLICY_RELOAD_DEBOUNCE_MS: '50' });
    await waitFor(
      async () => server.output().includes('"trigger":"watch"') || (await inSync(server.url)) === 1,
      'the watch to start',
    );
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('rm -rf, then a copy of new files: loaded, and later edits too; /readyz and the metric say when disk and service differ', async () => {
    expect(await policyFiles(server.url)).toMatchObject({ inSync: true });
    expect(await inSync(server.url)).toBe(1);

    rmSync(dir, { recursive: true, force: true });
    // Long enough for a reload attempt to fail: the set in use keeps serving, and that is said.
    await waitFor(
      async () => (await policyFiles(server.url)).reason === 'missing',
      '/readyz to report the missing directory',
    );
    expect(await inSync(server.url)).toBe(0);
    expect(await status(server.url, 'alpha')).toBe(403);

    const staged = join(root, 'staged');
    mkdirSync(staged);
    writeSet(staged, B);
    cpSync(staged, dir, { recursive: true });
    await serving(server.url, B);
    expect(await policyFiles(server.url)).toMatchObject({ inSync: true });
    expect(await inSync(server.url)).toBe(1);

    writeSet(dir, C);
    await serving(server.url, C);

    writeSet(dir, INVALID);
    await waitFor(
      async () => (await policyFiles(server.url)).reason === 'rejected',
      '/readyz to report the rejected files',
    );
    expect(await policyFiles(server.url)).toMatchObject({ inSync: false, diskRevision: revisionFor(INVALID) });
    expect(await inSync(server.url)).toBe(0);
    expect((await readyz(server.url)).revision).toBe(revisionFor(C));

    writeSet(dir, D);
    await serving(server.url, D);
    expect(await inSync(server.url)).toBe(1);
  });

  it('a directory swapped by rename (volume remount) between two looks is watched anew', async () => {
    const next = join(root, 'next');
    mkdirSync(next);
    writeSet(next, A);
    rmSync(dir, { recursive: true, force: true });
    renameSync(next, dir);
    await serving(server.url, A);
    writeSet(dir, B);
    await serving(server.url, B);
  });

  it('SIGHUP keeps working after the directory came back', async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    writeSet(dir, C);
    server.child.kill('SIGHUP');
    await serving(server.url, C);
    writeSet(dir, D);
    await serving(server.url, D);
  });
});

describe('a ConfigMap mount whose directory goes away and comes back', () => {
  const root = mkdtempSync(join(tmpdir(), 'preflight-cm-gone-'));
  const dir = join(root, 'mount');
  let server: ServerProcess;
  afterAll(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('keeps following ..data swaps after the mount is re-created', async () => {
    mkdirSync(dir);
    configMapDir(dir, A);
    server = await startServerProcess({ POLICY_DIR: dir, POLICY_RELOAD_DEBOUNCE_MS: '50' });
    rmSync(dir, { recursive: true, force: true });
    await waitFor(
      async () => (await policyFiles(server.url)).reason === 'missing',
      '/readyz to report the missing directory',
    );
    mkdirSync(dir);
    const mount = configMapDir(dir, B);
    await serving(server.url, B).catch((e) => {
      console.log(server.output());
      throw e;
    });
    mount.swap(C);
    await serving(server.url, C);
  });
});
