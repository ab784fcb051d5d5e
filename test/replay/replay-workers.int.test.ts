import { appendFileSync, copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ReplayReport } from '../../src/replay/replay-report';
import { generatedPolicies } from '../helpers/generated-runs';
import { seededRng } from '../helpers/policy-sets/rng';
import { recordArchive, type RecordedArchive } from '../helpers/record-archive';
import { spawnSync } from 'node:child_process';
import { CLI } from '../cli/run-cli';

/**
 * `replay --workers <n>` (docs/replay.md): blocks of the archive decided on worker threads give
 * the report and the warnings of a replay in one thread, byte for byte, in the same order: with
 * changed runs, unreadable lines, a damaged file and two writers merged by decision time.
 */
const POLICIES = generatedPolicies(seededRng(20), 60);
let recorded: RecordedArchive;
let archive: string;
let proposedDir: string;
const scratch: string[] = [];

beforeAll(async () => {
  recorded = await recordArchive({ policies: POLICIES, runs: 400, seed: 7 });
  archive = mkdtempSync(join(tmpdir(), 'workers-archive-'));
  scratch.push(archive);
  // Two writers: the recorded one, and a copy of its files under another host with a line that is
  // not JSON and one of the operational log added; and a third writer's file cut short.
  for (const name of readdirSync(recorded.archive)) {
    copyFileSync(join(recorded.archive, name), join(archive, name));
    const other = join(archive, name.replace('decisions-', 'decisions-other-'));
    copyFileSync(join(recorded.archive, name), other);
    if (name.endsWith('.jsonl')) appendFileSync(other, '{"cut short\n{"level":"info","message":"started"}\n');
  }
  const cut = gzipSync(Buffer.from('{"format":1}\n'.repeat(2000)));
  writeFileSync(join(archive, 'decisions-cut-20260105T070000000Z.jsonl.gz'), cut.subarray(0, cut.length - 40));
  // The proposed set: the recorded one and a policy blocking prod, so that some runs change.
  proposedDir = mkdtempSync(join(tmpdir(), 'workers-proposed-'));
  scratch.push(proposedDir);
  for (const [file, text] of Object.entries(POLICIES)) writeFileSync(join(proposedDir, file), text);
  const block = { kind: 'Policy', name: 'no-prod-at-all', rules: [{ environments: { blocked: ['prod'] } }] };
  writeFileSync(join(proposedDir, 'no-prod-at-all.yaml'), JSON.stringify(block));
}, 300_000);
afterAll(() => scratch.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The built CLI, as runCli runs it, with time for a busy machine: it replays 800 runs. */
function replay(workers: string, format = 'json') {
  const args = ['replay', '--archive', archive, '--dir', proposedDir, '--format', format, '--max-listed', '5'];
  const res = spawnSync(process.execPath, [CLI, ...args, '--workers', workers], {
    env: { PATH: process.env.PATH },
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

test('two or three worker threads write the report and warnings of a replay in one thread, byte for byte', () => {
  const alone = replay('0');
  const report = JSON.parse(alone.stdout) as ReplayReport;
  // The archive exercises what the order matters for: changes, problems, a damaged file.
  expect(report.counts.changed['newly-denied']).toBeGreaterThan(5);
  expect(report.counts.problems).toBeGreaterThanOrEqual(2);
  expect(report.counts.damagedFiles).toBe(1);
  expect(report.counts.replayed).toBeGreaterThan(700);
  for (const workers of ['2', '3']) {
    const threaded = replay(workers);
    expect(threaded.stdout).toBe(alone.stdout);
    expect(threaded.stderr).toBe(alone.stderr);
    expect(threaded.code).toBe(alone.code);
  }
  expect(replay('2', 'markdown').stdout).toBe(replay('0', 'markdown').stdout);
}, 600_000);

test('--workers that is not auto or a whole number is a usage error that says what it takes', () => {
  expect(replay('two')).toMatchObject({
    code: 2,
    stderr: expect.stringContaining('--workers must be auto or a whole number from 0 to 64, got "two"'),
  });
});
