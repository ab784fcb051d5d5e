import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetrics } from '../../src/observability/metrics';
import { createPolicyReloader } from '../../src/policy/runtime/policy-reloader';
import { reloadReport } from '../../src/observability/reload-report';
import { PolicyStore } from '../../src/policy/runtime/policy-store';
import { capturingLogger } from '../helpers/capturing-logger';
import { blockPolicy, revisionFor } from './reload-helpers';

describe('policy reloader', () => {
  const dir = mkdtempSync(join(tmpdir(), 'preflight-reload-'));
  const store = new PolicyStore();
  const metrics = createMetrics({ defaultMetrics: false });
  const { logger, lines } = capturingLogger();
  const reloader = createPolicyReloader({ dir, store, events: reloadReport({ metrics, logger, builtIns: [] }) });
  const A = { 'gate.yaml': blockPolicy('gate', 'alpha') };
  const B = { 'gate.yaml': blockPolicy('gate', 'beta'), 'more.yaml': blockPolicy('more', 'gamma') };
  const INVALID = { 'gate.yaml': 'kind: Policy\nname: gate\nrules:\n  - environments: {blocked: []}\n' };
  const count = async (result: string) =>
    (await metrics.reloads.get()).values.find((v) => v.labels.result === result)?.value ?? 0;
  const bundleInfo = async () =>
    Object.fromEntries((await metrics.bundleInfo.get()).values.map((v) => [v.labels.revision, v.value]));
  const write = (files: Record<string, string>) => {
    for (const [f, t] of Object.entries(files)) writeFileSync(join(dir, f), t);
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads a valid set: store, reload counter, policies gauge and bundle info', async () => {
    write(A);
    expect(reloader.reload('startup')).toEqual({ result: 'success', revision: revisionFor(A), previous: undefined });
    expect(store.current()?.revision).toBe(revisionFor(A));
    expect(store.lastLoad()).toMatchObject({ ok: true, trigger: 'startup', revision: revisionFor(A) });
    expect(await count('success')).toBe(1);
    expect(await bundleInfo()).toEqual({ [revisionFor(A)]: 1 });
  });

  it('neither reloads nor counts content that did not change', async () => {
    const before = store.current();
    expect(reloader.reload('SIGHUP')).toEqual({ result: 'unchanged', revision: revisionFor(A) });
    expect(store.current()).toBe(before);
    expect(await count('success')).toBe(1);
    expect(lines.at(-1)).toMatchObject({
      level: 'info',
      message: 'policy reload skipped: content unchanged',
      trigger: 'SIGHUP',
    });
  });

  it('rejects an invalid set, keeps the set in use, and logs and shows the file and line', async () => {
    const inUse = store.current();
    write(INVALID);
    const outcome = reloader.reload('watch');
    expect(outcome).toMatchObject({ result: 'failure', revisionInUse: revisionFor(A) });
    expect(store.current()).toBe(inUse);
    expect(store.lastLoad()).toMatchObject({
      ok: false,
      trigger: 'watch',
      revision: revisionFor(A),
      rejectedRevision: revisionFor(INVALID),
    });
    expect(store.lastLoad()?.problems[0]).toMatch(
      new RegExp(`^${dir}/gate\\.yaml:4:\\d+ rules\\[0\\]\\.environments\\.blocked: `),
    );
    const logged = lines.at(-1) as { level: string; message: string; problems: string[] };
    expect(logged.level).toBe('error');
    expect(logged.message).toMatch(
      new RegExp(
        `^policy set rejected \\(watch\\): ${dir}/gate\\.yaml:4:\\d+ .*; still serving revision ${revisionFor(A)}$`,
      ),
    );
    expect(await count('failure')).toBe(1);
    expect(await bundleInfo()).toEqual({ [revisionFor(A)]: 1 });
  });

  it('does not count the same invalid content twice', async () => {
    expect(reloader.reload('watch').result).toBe('unchanged');
    expect(await count('failure')).toBe(1);
  });

  it('a SIGHUP after a rejected reload says the files are still the rejected ones, not "content unchanged"', async () => {
    expect(reloader.reload('SIGHUP')).toEqual({ result: 'unchanged', revision: revisionFor(A) });
    expect(await count('failure')).toBe(1);
    const logged = lines.at(-1) as { level: string; message: string };
    expect(logged.level).toBe('warn');
    expect(logged.message).toMatch(
      new RegExp(
        `^policy reload skipped: the files are unchanged since they were rejected \\(${dir}/gate\\.yaml:4:\\d+ rules\\[0\\]\\.environments\\.blocked: .*\\); still serving revision ${revisionFor(A)}$`,
      ),
    );
    expect(logged.message).not.toContain('content unchanged');
  });

  it('replaces the set with the next valid one and drops the old revision from bundle info', async () => {
    const old = store.current();
    write(B);
    expect(reloader.reload('watch')).toEqual({ result: 'success', revision: revisionFor(B), previous: revisionFor(A) });
    expect(store.current()?.policies.map((p) => p.name)).toEqual(['gate', 'more']);
    expect(old?.revision).toBe(revisionFor(A));
    expect(old?.policies.map((p) => p.name)).toEqual(['gate']);
    expect(await bundleInfo()).toEqual({ [revisionFor(B)]: 1 });
    expect((await metrics.policiesLoaded.get()).values[0].value).toBe(2);
    expect(await count('success')).toBe(2);
  });

  it('keeps serving when the directory disappears', async () => {
    const inUse = store.current();
    rmSync(dir, { recursive: true, force: true });
    expect(reloader.reload('SIGHUP')).toMatchObject({ result: 'failure', revisionInUse: revisionFor(B) });
    expect(store.current()).toBe(inUse);
    expect(store.lastLoad()?.problems[0]).toMatch(/cannot read the policy directory: ENOENT/);
    expect(await count('failure')).toBe(2);
  });
});

describe('the files of the policy directory that are not loaded, on /readyz (lastLoad.problems)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'preflight-reload-'));
  const store = new PolicyStore();
  const metrics = createMetrics({ defaultMetrics: false });
  const reloader = createPolicyReloader({
    dir,
    store,
    events: reloadReport({ metrics, logger: capturingLogger().logger, builtIns: [] }),
  });
  const A = { 'gate.yaml': blockPolicy('gate', 'alpha') };
  const INVALID = { 'gate.yaml': 'kind: Policy\nname: gate\nrules:\n  - environments: {blocked: []}\n' };
  const write = (files: Record<string, string>) => {
    for (const [f, t] of Object.entries(files)) writeFileSync(join(dir, f), t);
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists the files not loaded as they are at each attempt, whether the set loads, is unchanged or is rejected', () => {
    const bak = `${dir}/gate.yaml.bak:1:1 warning: not loaded, ignored: only *.yaml and *.yml files are policies`;
    const listed = () => (store.lastLoad()?.problems ?? []).filter((p) => p.includes('not loaded, ignored'));
    write(A);
    expect(reloader.reload('startup').result).toBe('success');
    expect(listed()).toEqual([]);
    writeFileSync(join(dir, 'gate.yaml.bak'), blockPolicy('gate', 'beta'));
    expect(reloader.reload('watch').result).toBe('unchanged');
    expect(listed()).toEqual([expect.stringContaining(bak)]);
    expect(store.lastLoad()).toMatchObject({ ok: true, revision: revisionFor(A) });
    write(INVALID);
    expect(reloader.reload('watch').result).toBe('failure');
    expect(store.lastLoad()?.problems).toEqual([
      expect.stringMatching(new RegExp(`^${dir}/gate\\.yaml:4:\\d+ rules\\[0\\]`)),
      expect.stringContaining(bak),
    ]);
    rmSync(join(dir, 'gate.yaml.bak'));
    expect(reloader.reload('watch').result).toBe('unchanged');
    expect(listed()).toEqual([]);
    expect(store.lastLoad()).toMatchObject({ ok: false, rejectedRevision: revisionFor(INVALID) });
  });
});

describe('an attempt that finds the files unchanged is still the last attempt on /readyz', () => {
  const dir = mkdtempSync(join(tmpdir(), 'preflight-reload-'));
  const store = new PolicyStore();
  const metrics = createMetrics({ defaultMetrics: false });
  let now = new Date('2026-03-02T10:00:00Z');
  const reloader = createPolicyReloader({
    dir,
    store,
    events: reloadReport({ metrics, logger: capturingLogger().logger, builtIns: [] }),
    clock: () => now,
  });
  const A = { 'gate.yaml': blockPolicy('gate', 'alpha') };
  const INVALID = { 'gate.yaml': 'kind: Policy\nname: gate\nrules:\n  - environments: {blocked: []}\n' };
  const write = (files: Record<string, string>) => {
    for (const [f, t] of Object.entries(files)) writeFileSync(join(dir, f), t);
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a stray file added: lastLoad.at and trigger are the attempt that saw it, with the set it left in use', () => {
    write(A);
    expect(reloader.reload('startup').result).toBe('success');
    expect(store.lastLoad()).toEqual({
      at: '2026-03-02T10:00:00.000Z',
      ok: true,
      trigger: 'startup',
      revision: revisionFor(A),
      problems: [],
    });
    now = new Date('2026-03-02T10:05:00Z');
    writeFileSync(join(dir, 'gate.yaml.bak'), blockPolicy('gate', 'beta'));
    expect(reloader.reload('watch').result).toBe('unchanged');
    expect(store.lastLoad()).toEqual({
      at: '2026-03-02T10:05:00.000Z',
      ok: true,
      trigger: 'watch',
      unchanged: true,
      revision: revisionFor(A),
      problems: [expect.stringContaining(`${dir}/gate.yaml.bak:1:1 warning: not loaded, ignored`)],
    });
    expect(reloader.sync()).toMatchObject({ inSync: true, checkedAt: '2026-03-02T10:05:00.000Z' });
    // The set itself was loaded at start-up: its loadedAt does not move.
    expect(store.current()?.loadedAt.toISOString()).toBe('2026-03-02T10:00:00.000Z');
  });

  it("the start-up's second look (once the watch is up) that finds the same files leaves lastLoad the start-up's", () => {
    const startup = store.lastLoad();
    now = new Date('2026-03-02T10:05:00.250Z');
    expect(reloader.reload('startup').result).toBe('unchanged');
    expect(store.lastLoad()).toEqual(startup);
    expect(reloader.sync()).toMatchObject({ inSync: true, checkedAt: '2026-03-02T10:05:00.250Z' });
  });

  it('after a rejection: the unchanged attempt keeps saying rejected, at its own time and trigger', () => {
    now = new Date('2026-03-02T10:10:00Z');
    write(INVALID);
    expect(reloader.reload('watch').result).toBe('failure');
    now = new Date('2026-03-02T10:15:00Z');
    expect(reloader.reload('SIGHUP').result).toBe('unchanged');
    expect(store.lastLoad()).toMatchObject({
      at: '2026-03-02T10:15:00.000Z',
      ok: false,
      trigger: 'SIGHUP',
      unchanged: true,
      revision: revisionFor(A),
      rejectedRevision: revisionFor(INVALID),
    });
    expect(reloader.sync()).toMatchObject({ inSync: false, reason: 'rejected', checkedAt: '2026-03-02T10:15:00.000Z' });
  });

  it('an attempt that loads again clears unchanged', () => {
    now = new Date('2026-03-02T10:20:00Z');
    write(A);
    expect(reloader.reload('watch').result).toBe('success');
    expect(store.lastLoad()).toMatchObject({ at: '2026-03-02T10:20:00.000Z', ok: true, trigger: 'watch' });
    expect(store.lastLoad()).not.toHaveProperty('unchanged');
  });
});
