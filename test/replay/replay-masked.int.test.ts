import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
  expect(text).toContain('"key":"k8s.namespace","value":"[redacted]"');
  expect(text).toContain('"masked":["k8s.namespace"]');
  for (const namespace of ['kube-system', 'payments']) expect(text).not.toContain(namespace);
  expect(text).toContain('{"key":"k8s.namespace","operator":"EQUALS","values":["[redacted]"]}');
  expect(text).not.toContain('[masked]');
  expect(text).toContain('"key":"container.engine","value":"cri-o"');
});

/** `replay --format json --tolerate-not-replayable` of an archive directory: the exit code and the report. */
async function replayJson(archive: string): Promise<{ code: number; report: ReplayReport }> {
  let out = '';
  const code = await replayCommand(
    {
      archive,
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
  return { code, report: JSON.parse(out) as ReplayReport };
}

test('runs whose decision read a masked value are not replayable; every other run replays exactly', async () => {
  const { code, report } = await replayJson(recorded.archive);
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

/**
 * The archive as 0.1.0 wrote it: masked values in payloads were `[masked]` (texts quoting them were
 * `[redacted]` already). Uncompressed, one file.
 */
function asWrittenBy010(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pg-archive-0.1.0-'));
  const toOld = (v: unknown): unknown =>
    v === '[redacted]'
      ? '[masked]'
      : Array.isArray(v)
        ? v.map(toOld)
        : v !== null && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toOld(x)]))
          : v;
  const lines = archiveText()
    .trim()
    .split('\n')
    .map((line) => {
      const record = JSON.parse(line) as { payload: unknown };
      return JSON.stringify({ ...record, payload: toOld(record.payload) });
    });
  writeFileSync(join(dir, 'decisions-0.1.0.jsonl'), `${lines.join('\n')}\n`);
  return dir;
}

test('an archive written by 0.1.0 (masked values as "[masked]") replays as it did: the same runs unchanged and not replayable', async () => {
  const old = asWrittenBy010();
  try {
    expect(readFileSync(join(old, 'decisions-0.1.0.jsonl'), 'utf8')).toContain(
      '"key":"k8s.namespace","value":"[masked]"',
    );
    const now = await replayJson(recorded.archive);
    const then = await replayJson(old);
    expect(then.code).toBe(0);
    expect(then.report.counts).toEqual(now.report.counts);
    expect(then.report.notReplayable.map((n) => n.message)).toEqual(now.report.notReplayable.map((n) => n.message));
  } finally {
    rmSync(old, { recursive: true, force: true });
  }
});
