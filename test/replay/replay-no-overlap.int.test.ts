import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { testApp } from '../helpers/test-app';
import { MemoryGuardStore } from '../../src/guard/memory-guard-store';
import { RunsInProgress } from '../../src/guard/runs-in-progress';
import { MemoryStateStore } from '../../src/state/memory-state-store';
import { guardrailState } from '../../src/state/guardrail-state';
import { parseStateConfig } from '../../src/state/state-config';
import { archivedRecords, archivingParts, replayJson, type RecordedArchive } from '../helpers/record-archive';
import { signedPost } from '../helpers/signed-post';
import { TIMING } from '../state/store-table';
import { onHost, runOf } from '../helpers/runs-on-targets';

const SECRET = 'replay-overlap';
const NOW = Date.parse('2026-01-05T10:00:00Z');
const POLICY = 'kind: Policy\nname: one-run-per-host\nrules:\n  - noOverlap: {by: [host.hostname]}\n';
const run = runOf;

let root: string;
let recorded: RecordedArchive;

/** The service path (createApp, the archive writer) deciding two runs while run 7 of team OPS is in progress on node-a. */
beforeAll(async () => {
  const parts = archivingParts('replay-overlap-', { 'no-overlap.yaml': POLICY }, NOW);
  const { policies, archive, clock, logger, metrics, decisions } = parts;
  root = parts.root;
  const guardRuns = new MemoryGuardStore(() => NOW);
  await guardRuns.keep(
    {
      executionId: '7',
      decisionId: 'd-7',
      allowedAt: new Date(NOW - 60_000).toISOString(),
      revision: parts.bundle.revision,
      payload: run(7, 'OPS', [onHost('web-1', 'node-a')]),
    },
    NOW + 3_600_000,
    NOW,
  );
  const state = {
    ...guardrailState(parseStateConfig({}), new MemoryStateStore(TIMING)),
    inProgress: new RunsInProgress(guardRuns),
  };
  const { app } = testApp(parts.bundle, { secrets: [SECRET], logger, metrics, clock, archive: decisions, state });
  const server = await new Promise<Server>((resolve) => {
    const s = createServer(app).listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/preflight`;
  try {
    expect((await signedPost(url, run(8, 'ADM', [onHost('c-2', 'node-a')]), SECRET)).status).toBe(403);
    expect((await signedPost(url, run(9, 'ADM', [onHost('c-3', 'node-b')]), SECRET)).status).toBe(200);
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await decisions.close();
  }
  recorded = { archive, policies, answers: new Map(), metrics };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

test('the archive records the runs in progress the rule read: only those sharing the run’s targets', async () => {
  const records = await archivedRecords(recorded);
  expect(records.map((r) => [r.answer.status, r.facts.state?.inProgress])).toEqual([
    [
      403,
      {
        runs: { '7': { experimentKey: 'OPS-7', team: 'OPS', since: '2026-01-05T09:59:00.000Z' } },
        targets: {},
        attributes: { 'host.hostname': { 'node-a': ['7'] } },
      },
    ],
    [200, { runs: {}, targets: {}, attributes: {} }],
  ]);
});

test('replay decides both again from the recorded facts, and a proposed change is judged on them', async () => {
  const same = await replayJson(recorded);
  expect([same.code, same.warnings, same.report.counts.unchanged, same.report.counts.replayed]).toEqual([0, [], 2, 2]);

  // Without `by`, only the same target overlaps: run 8 (another target on node-a) would now start.
  const proposed = join(root, 'proposed');
  mkdirSync(proposed);
  writeFileSync(join(proposed, 'no-overlap.yaml'), POLICY.replace('{by: [host.hostname]}', '{}'));
  const changed = await replayJson(recorded, { dir: proposed });
  expect(changed.report.counts.changed['newly-allowed']).toBe(1);
  expect(changed.report.counts.notReplayable).toBe(0);

  // A key the recording did not read cannot be judged from it: the record is not replayable.
  writeFileSync(join(proposed, 'no-overlap.yaml'), POLICY.replace('[host.hostname]', '[host.hostname, k8s.zone]'));
  const wider = await replayJson(recorded, { dir: proposed });
  expect(wider.report.counts.notReplayable).toBe(2);
});
