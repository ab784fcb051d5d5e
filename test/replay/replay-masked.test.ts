import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { replayCommand } from '../../src/cli/commands/replay-command';
import type { ReplayReport } from '../../src/replay/replay-report';
import { generatedPolicies } from '../helpers/generated-runs';
import { seededRng } from '../helpers/policy-sets/rng';
import { recordArchive, type RecordedArchive } from '../helpers/record-archive';

let recorded: RecordedArchive;
beforeAll(async () => {
  recorded = await recordArchive({
    policies: generatedPolicies(seededRng(20), 60),
    runs: 300,
    seed: 11,
    maskAttributes: ['k8s.namespace'],
  });
}, 300_000);

const archiveText = () =>
  readdirSync(recorded.archive)
    .map((n) => {
      const bytes = readFileSync(join(recorded.archive, n));
      return (n.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
    })
    .join('');

test('masked attribute values are written nowhere in the archive: targets, radius predicates, answers and results', () => {
  const text = archiveText();
  expect(text).toContain('"key":"k8s.namespace","value":"[masked]"');
  expect(text).toContain('"masked":["k8s.namespace"]');
  for (const namespace of ['kube-system', 'payments']) expect(text).not.toContain(namespace);
  expect(text).toContain('{"key":"k8s.namespace","operator":"EQUALS","values":["[masked]"]}');
  expect(text).toContain('"key":"container.engine","value":"cri-o"');
});

test('runs whose decision read a masked value are not replayable; every other run replays exactly', async () => {
  let out = '';
  const code = await replayCommand(
    {
      archive: recorded.archive,
      dir: recorded.policies,
      format: 'json',
      maxListed: '5',
      failOn: 'any-change',
      tolerateNotReplayable: true,
    },
    {},
    (s) => {
      out += s;
    },
    () => undefined,
  );
  const report = JSON.parse(out) as ReplayReport;
  expect(code).toBe(0);
  // Without --tolerate-not-replayable the check cannot vouch for the runs it could not replay.
  expect(
    await replayCommand(
      { archive: recorded.archive, dir: recorded.policies, format: 'json', maxListed: '5', failOn: 'any-change' },
      {},
      () => undefined,
      () => undefined,
    ),
  ).toBe(1);
  expect(report.counts.notReplayable).toBeGreaterThan(0);
  expect(report.counts.unchanged).toBeGreaterThan(0);
  expect(report.counts.unchanged + report.counts.notReplayable).toBe(300);
  expect(report.counts.irreproducible).toBe(0);
  expect(report.notReplayable.map((n) => n.message)).toEqual([
    'the decision reads the target attribute k8s.namespace, whose values the archive masks (DECISION_ARCHIVE_MASK_ATTRIBUTES)',
  ]);
});
