import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../src/common/logger';
import { createMetrics } from '../../src/observability/metrics';
import { createPolicyReloader } from '../../src/policy/runtime/policy-reloader';
import { reloadReport } from '../../src/observability/reload-report';
import { PolicyStore } from '../../src/policy/runtime/policy-store';
import { blockPolicy, revisionFor } from './reload-helpers';

/** After each step, the reloader's view of disk versus the set served, and the gauge. */
describe('whether the files on disk are the set served', () => {
  const root = mkdtempSync(join(tmpdir(), 'preflight-sync-'));
  const dir = join(root, 'policies');
  const metrics = createMetrics({ defaultMetrics: false });
  const store = new PolicyStore();
  const reloader = createPolicyReloader({
    dir,
    store,
    events: reloadReport({ metrics, logger: createLogger('error', { silent: true }), builtIns: [] }),
    clock: () => new Date('2026-03-02T10:00:00Z'),
  });
  const A = { 'gate.yaml': blockPolicy('gate', 'alpha') };
  const INVALID = { 'gate.yaml': 'kind: Policy\nname: gate\nrules:\n  - nosuchrule: {}\n' };
  const write = (files: Record<string, string>) => {
    mkdirSync(dir, { recursive: true });
    for (const [f, t] of Object.entries(files)) writeFileSync(join(dir, f), t);
  };
  const gauge = async () => (await metrics.policyFilesInSync.get()).values[0]?.value;
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test.each<[string, () => void, object, number]>([
    ['a valid set loaded', () => write(A), { inSync: true, reason: 'in-sync', servedRevision: revisionFor(A) }, 1],
    [
      'an invalid set on disk',
      () => write(INVALID),
      {
        inSync: false,
        reason: 'rejected',
        diskRevision: revisionFor(INVALID),
        servedRevision: revisionFor(A),
        message: expect.stringMatching(/gate\.yaml:4/),
      },
      0,
    ],
    [
      'the same invalid set seen again (skipped, still out of sync)',
      () => undefined,
      { inSync: false, reason: 'rejected' },
      0,
    ],
    [
      'the directory removed',
      () => rmSync(dir, { recursive: true, force: true }),
      { inSync: false, reason: 'missing', servedRevision: revisionFor(A), message: expect.stringMatching(/ENOENT/) },
      0,
    ],
    [
      'an empty directory',
      () => mkdirSync(dir),
      { inSync: false, reason: 'missing', message: expect.stringMatching(/no policy files/) },
      0,
    ],
    ['the valid set back', () => write(A), { inSync: true, reason: 'in-sync', servedRevision: revisionFor(A) }, 1],
    [
      'POLICY_DIR a file, not a directory',
      () => {
        rmSync(dir, { recursive: true });
        writeFileSync(dir, 'x');
      },
      { inSync: false, reason: 'unreadable' },
      0,
    ],
  ])('%s', async (_name, change, expected, value) => {
    change();
    reloader.reload('watch');
    expect(reloader.sync()).toMatchObject({ checkedAt: '2026-03-02T10:00:00.000Z', ...expected });
    expect(await gauge()).toBe(value);
  });
});
