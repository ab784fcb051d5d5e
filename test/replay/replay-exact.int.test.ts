import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replayCommand } from '../../src/cli/commands/replay-command';
import type { ArchiveRecord } from '../../src/archive/archive-record';
import { readRecords } from '../../src/replay/read-records';
import type { ReplayReport } from '../../src/replay/replay-report';
import { generatedPolicies } from '../helpers/generated-runs';
import { seededRng } from '../helpers/policy-sets/rng';
import { recordArchive, type RecordedArchive } from '../helpers/record-archive';

/** Thousands of generated decisions, recorded by the real service path, replayed by the CLI's command. */
const RUNS = Number(process.env.REPLAY_RUNS ?? 3000);
let recorded: RecordedArchive;

beforeAll(async () => {
  recorded = await recordArchive({ policies: generatedPolicies(seededRng(20), 60), runs: RUNS, seed: 24 });
}, 600_000);

async function allRecords(dir: string): Promise<ArchiveRecord[]> {
  const out: ArchiveRecord[] = [];
  for (const name of readdirSync(dir).sort()) {
    for await (const line of readRecords(join(dir, name))) {
      if (line.kind === 'damaged') throw new Error(`${line.file}: ${line.message}`);
      if (line.kind !== 'record') throw new Error(`${line.where}: ${line.message}`);
      out.push(line.record);
    }
  }
  return out;
}

test('every decision is archived with the exact bytes of the answer the service sent', async () => {
  const records = await allRecords(recorded.archive);
  expect(records).toHaveLength(RUNS);
  expect(recorded.answers.size).toBe(RUNS);
  for (const record of records) {
    const sent = recorded.answers.get(record.id);
    expect({ id: record.id, status: record.answer.status, text: JSON.stringify(record.answer.body) }).toEqual({
      id: record.id,
      ...sent,
    });
  }
  // The generated runs reach every outcome and every source of facts.
  const statuses = new Set(records.map((r) => r.answer.status));
  expect([...statuses].sort()).toEqual([200, 403]);
  expect(records.filter((r) => r.answer.status === 403).length).toBeGreaterThan(RUNS / 10);
  expect(records.filter((r) => r.answer.status === 200).length).toBeGreaterThan(RUNS / 10);
  expect(records.some((r) => JSON.stringify(r.facts.state ?? {}).includes('"engaged":true'))).toBe(true);
  expect(records.some((r) => r.explain)).toBe(true);
  // Rotated by size and age, closed files gzipped.
  expect(readdirSync(recorded.archive).filter((n) => n.endsWith('.jsonl.gz')).length).toBeGreaterThan(3);
  const written = await recorded.metrics.registry.getSingleMetricAsString('preflight_decision_archive_records_total');
  expect(written).toContain(`outcome="written"} ${RUNS}`);
  expect(written).toContain('outcome="dropped"} 0');
});

test('replaying the archive against the revision that made it reproduces every answer byte for byte', async () => {
  let out = '';
  const warnings: string[] = [];
  const code = await replayCommand(
    { archive: recorded.archive, dir: recorded.policies, format: 'json', failOn: 'any-change', maxListed: '20' },
    {},
    (s) => {
      out += s;
    },
    (s) => warnings.push(s),
  );
  const report = JSON.parse(out) as ReplayReport;
  expect(warnings).toEqual([]);
  expect(report.counts).toEqual({
    records: RUNS,
    outOfRange: 0,
    replayed: RUNS,
    unchanged: RUNS,
    notReplayable: 0,
    problems: 0,
    irreproducible: 0,
    damagedFiles: 0,
    changed: { 'newly-allowed': 0, 'newly-denied': 0, message: 0, modifications: 0, results: 0 },
  });
  expect(Object.values(report.recordedRevisions)).toEqual([RUNS]);
  expect(Object.keys(report.recordedRevisions)).toEqual([report.revision]);
  expect(code).toBe(0);
});

test("from a checkout of the same policies elsewhere (a pull request's), explained answers still replay exactly", async () => {
  // ?explain=true answers name each policy's file under the service's POLICY_DIR.
  const checkout = mkdtempSync(join(tmpdir(), 'checkout-'));
  try {
    cpSync(recorded.policies, join(checkout, 'policies'), { recursive: true });
    let out = '';
    const warnings: string[] = [];
    const code = await replayCommand(
      {
        archive: recorded.archive,
        dir: join(checkout, 'policies'),
        format: 'json',
        failOn: 'any-change',
        maxListed: '5',
      },
      {},
      (s) => {
        out += s;
      },
      (s) => warnings.push(s),
    );
    const report = JSON.parse(out) as ReplayReport;
    expect(warnings).toEqual([]);
    expect(report.counts).toMatchObject({ replayed: RUNS, unchanged: RUNS, irreproducible: 0 });
    expect(code).toBe(0);
  } finally {
    rmSync(checkout, { recursive: true, force: true });
  }
});
