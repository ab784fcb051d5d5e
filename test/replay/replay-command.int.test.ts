import { appendFileSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { replayCommand, type ReplayCommandOptions } from '../../src/cli/commands/replay-command';
import type { ArchiveRecord } from '../../src/archive/archive-record';
import { readRecords } from '../../src/replay/read-records';
import type { ReplayReport } from '../../src/replay/replay-report';
import { generatedPolicies } from '../helpers/generated-runs';
import { seededRng } from '../helpers/policy-sets/rng';
import { recordArchive, type RecordedArchive } from '../helpers/record-archive';
import { runCli } from '../cli/run-cli';

const POLICIES = generatedPolicies(seededRng(20), 60);
let recorded: RecordedArchive;
let records: ArchiveRecord[];
const scratch: string[] = [];

beforeAll(async () => {
  recorded = await recordArchive({ policies: POLICIES, runs: 400, seed: 7 });
  records = [];
  for (const name of readdirSync(recorded.archive).sort()) {
    for await (const line of readRecords(join(recorded.archive, name)))
      if (line.kind === 'record') records.push(line.record);
  }
}, 300_000);
afterAll(() => scratch.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A policy directory: the recorded set changed by `change` (file -> text, or undefined to remove it). */
function proposed(change: Record<string, string | undefined>): string {
  const dir = mkdtempSync(join(tmpdir(), 'proposed-'));
  scratch.push(dir);
  for (const [file, text] of Object.entries({ ...POLICIES, ...change }))
    if (text !== undefined) writeFileSync(join(dir, file), text);
  return dir;
}

async function replay(opts: Partial<ReplayCommandOptions> & { dir: string }) {
  let out = '';
  const warnings: string[] = [];
  const code = await replayCommand(
    { archive: recorded.archive, format: 'json', maxListed: '1000', ...opts },
    {},
    (s) => {
      out += s;
    },
    (s) => warnings.push(s),
  );
  return {
    code,
    out,
    warnings,
    report: (opts.format ?? 'json') === 'json' ? (JSON.parse(out) as ReplayReport) : undefined,
  };
}

const denials = (r: ArchiveRecord) => r.results.filter((x) => x.result === 'deny').map((x) => x.policy);
const environmentOf = (r: ArchiveRecord) => (r.payload as { execution: { environment: string } }).execution.environment;

test('removing a policy: the runs only it denied are newly allowed, listed first, and --fail-on newly-allowed fails', async () => {
  // The file policy that was the only denial of the most runs.
  const sole = new Map<string, number>();
  for (const r of records)
    if (denials(r).length === 1 && !denials(r)[0].includes('built-in'))
      sole.set(denials(r)[0], (sole.get(denials(r)[0]) ?? 0) + 1);
  const [policy, expected] = [...sole].sort((a, b) => b[1] - a[1])[0];
  expect(expected).toBeGreaterThan(3);
  const dir = proposed({ [`${policy}.yaml`]: undefined });
  const { code, report } = await replay({ dir, failOn: 'newly-allowed' });
  expect(code).toBe(1);
  expect(report?.counts.changed['newly-allowed']).toBe(expected);
  expect(report?.counts.changed['newly-denied']).toBe(0);
  expect(new Set(report?.changes['newly-allowed'].map((c) => c.decisionId))).toEqual(
    new Set(records.filter((r) => denials(r).join() === policy).map((r) => r.id)),
  );
  expect(report?.byPolicy[0]).toMatchObject({ policy, newlyAllowed: expected });
  const first = report?.changes['newly-allowed'][0];
  expect(first).toMatchObject({
    before: { status: 403 },
    after: { status: 200 },
    policies: expect.arrayContaining([{ policy, before: 'deny', after: 'absent' }]),
  });
  expect(first?.executionId).toMatch(/^\d+$/);
  expect(first?.experimentKey).toMatch(/^[A-Z]+-\d+$/);
  const text = await replay({ dir, format: 'text' });
  expect(text.out.indexOf('Newly allowed')).toBeLessThan(text.out.indexOf('Newly denied'));
  expect(text.out).toContain(`${policy}: newly allowed ${expected}`);
});

test('adding a policy that blocks prod: every allowed prod run is newly denied; --fail-on any-change fails, newly-allowed does not', async () => {
  const block = JSON.stringify({
    kind: 'Policy',
    name: 'no-prod-at-all',
    rules: [{ environments: { blocked: ['prod'] } }],
  });
  const dir = proposed({ 'no-prod-at-all.yaml': block });
  const expected = records.filter((r) => r.answer.status === 200 && environmentOf(r) === 'prod').length;
  expect(expected).toBeGreaterThan(3);
  const strict = await replay({ dir, failOn: 'any-change' });
  expect(strict.code).toBe(1);
  expect(strict.report?.counts.changed['newly-denied']).toBe(expected);
  expect(strict.report?.counts.changed['newly-allowed']).toBe(0);
  expect(
    strict.report?.changes['newly-denied'].every((c) =>
      c.after.message.includes('[no-prod-at-all] environment prod is blocked'),
    ),
  ).toBe(true);
  expect((await replay({ dir, failOn: 'newly-allowed' })).code).toBe(0);
});

test('a proposed cool-down longer than any the archive looked back is not replayable, and says why', async () => {
  const longer = JSON.stringify({
    kind: 'Policy',
    name: 'long-pause',
    rules: [{ cooldown: { after: ['FAILED'], duration: '2d', per: 'team' } }],
  });
  const { report, warnings, code } = await replay({ dir: proposed({ 'long-pause.yaml': longer }) });
  // No run replayed: nothing was checked, exit 2 (not 0) even without --fail-on.
  expect(code).toBe(2);
  expect(report?.counts.notReplayable).toBe(records.length);
  expect(report?.notReplayable[0].message).toBe(
    'the proposed policies need state facts the archive did not record for this run (its policy set did not need them): runs ended in the last 2 days per team',
  );
  expect(warnings.length).toBe(22); // 20 warnings, then how many more, then why nothing was checked
  expect(warnings[20]).toContain(`${records.length - 20} more warnings`);
  expect(warnings[21]).toBe(
    `preflight-gate: no archived decision was replayed, so nothing was checked: ${records.length} runs cannot be replayed against these policies (see "Not replayable")\n`,
  );
});

test('--fail-on fails when runs cannot be replayed: a proposal cannot pass the check by making the archive unreadable', async () => {
  // Removing a policy that denied runs AND adding a memory rule the archive has no facts for: no
  // run can be replayed, so nothing is "newly allowed", yet the check must not pass.
  const sole = records.find((r) => denials(r).length === 1 && !denials(r)[0].includes('built-in')) as ArchiveRecord;
  const longer = JSON.stringify({
    kind: 'Policy',
    name: 'long-pause',
    mode: 'audit',
    rules: [{ cooldown: { after: ['FAILED'], duration: '2d', per: 'team' } }],
  });
  const dir = proposed({ [`${denials(sole)[0]}.yaml`]: undefined, 'long-pause.yaml': longer });
  const strict = await replay({ dir, failOn: 'newly-allowed' });
  expect(strict.report?.counts.notReplayable).toBe(records.length);
  // No run replayed at all: exit 2 (nothing checked), with --fail-on, with --tolerate-not-replayable
  // (which no longer lets a check that checked nothing pass) and without.
  expect(strict.code).toBe(2);
  expect(strict.warnings.join('')).toContain(`nothing was checked: ${records.length} runs cannot be replayed`);
  expect((await replay({ dir, failOn: 'newly-allowed', tolerateNotReplayable: true })).code).toBe(2);
  expect((await replay({ dir })).code).toBe(2);
});

/** The policy with the most records where `pick` holds, with that count. */
function most(pick: (r: ArchiveRecord, policy: string) => boolean, among: string[]): [string, number] {
  return among
    .map((policy): [string, number] => [policy, records.filter((r) => pick(r, policy)).length])
    .sort((a, b) => b[1] - a[1])[0];
}
const resultOf = (r: ArchiveRecord, policy: string) => r.results.find((x) => x.policy === policy)?.result;
const reworded = (file: string, change: (doc: Record<string, unknown>) => void) => {
  const doc = JSON.parse(POLICIES[file]) as Record<string, unknown>;
  change(doc);
  return JSON.stringify(doc);
};

test('a reworded message: the runs the policy denied are listed as message changed, by policy, with the run named', async () => {
  const names = Object.keys(POLICIES)
    .filter((f) => f.startsWith('policy-'))
    .map((f) => f.replace('.yaml', ''));
  const [policy, expected] = most((r, p) => resultOf(r, p) === 'deny', names);
  expect(expected).toBeGreaterThan(3);
  const dir = proposed({
    [`${policy}.yaml`]: reworded(`${policy}.yaml`, (doc) => {
      doc.message = 'reworded by the pull request: {{reason}}';
    }),
  });
  const { report } = await replay({ dir, failOn: 'any-change' });
  // Where the answer names other denials only (the message is capped), only the policy's result changed.
  const { message, results } = report?.counts.changed ?? { message: 0, results: 0 };
  expect(report?.counts.changed).toMatchObject({ 'newly-allowed': 0, 'newly-denied': 0, modifications: 0 });
  expect([message > 0, message + results]).toEqual([true, expected]);
  expect(report?.byPolicy).toEqual([{ policy, newlyAllowed: 0, newlyDenied: 0, changed: expected }]);
  for (const run of report?.changes.message ?? []) {
    expect(run.policies).toEqual([{ policy, before: 'deny', after: 'deny' }]);
    expect([run.before.status, run.after.status]).toEqual([403, 403]);
    expect(run.after.message).toContain(`[${policy}] reworded by the pull request: `);
    expect(run.before.message).not.toContain('reworded');
    expect(run).toMatchObject({
      executionId: expect.stringMatching(/^\d+$/),
      experimentKey: expect.stringMatching(/^[A-Z]+-\d+$/),
    });
  }
  const text = await replay({ dir, format: 'text' });
  expect(text.out).toMatch(/Message changed[^\n]*\n[\s\S]*execution \d+ \(experiment [A-Z]+-\d+/);
});

test('a modification that writes another value: the allowed runs it applied to are listed as modifications changed, under that policy', async () => {
  const writers = Object.keys(POLICIES)
    .filter((f) => f.startsWith('policy-') && POLICIES[f].includes('"modifications"'))
    .map((f) => f.replace('.yaml', ''));
  const [policy, applied] = most(
    (r, p) => r.answer.status === 200 && ['pass', 'warn', 'audit'].includes(resultOf(r, p) ?? ''),
    writers,
  );
  expect(applied).toBeGreaterThan(3);
  const dir = proposed({
    [`${policy}.yaml`]: reworded(`${policy}.yaml`, (doc) => {
      (doc.modifications as Array<{ value: string }>)[0].value = 'written by the pull request';
    }),
  });
  const { report } = await replay({ dir });
  const changed = report?.counts.changed.modifications ?? 0;
  expect(changed).toBeGreaterThan(0);
  expect(changed).toBeLessThanOrEqual(applied); // another policy may keep the key (a conflict it wins)
  expect(report?.counts.changed).toMatchObject({ 'newly-allowed': 0, 'newly-denied': 0, message: 0 });
  expect(report?.byPolicy).toEqual([{ policy, newlyAllowed: 0, newlyDenied: 0, changed }]);
  for (const run of report?.changes.modifications ?? []) {
    expect(run.policies).toEqual([
      {
        policy,
        before: resultOf(records.find((r) => r.id === run.decisionId) as ArchiveRecord, policy),
        after: expect.any(String),
      },
    ]);
    expect(run.after.modifications).toEqual(
      expect.arrayContaining([expect.objectContaining({ value: 'written by the pull request' })]),
    );
    expect(run.before.modifications).not.toEqual(
      expect.arrayContaining([expect.objectContaining({ value: 'written by the pull request' })]),
    );
  }
});

test('a reworded warning and a new modification value in the same runs: the writer is named for them too (message changes)', async () => {
  const names = Object.keys(POLICIES)
    .filter((f) => f.startsWith('policy-'))
    .map((f) => f.replace('.yaml', ''));
  const writers = names.filter((p) => POLICIES[`${p}.yaml`].includes('"modifications"'));
  const warned = (r: ArchiveRecord, p: string) => r.answer.status === 200 && resultOf(r, p) === 'warn';
  const applied = (r: ArchiveRecord, p: string) =>
    r.answer.status === 200 && ['pass', 'warn', 'audit'].includes(resultOf(r, p) ?? '');
  // The writer and the warning policy that meet in the most allowed runs.
  const pairs = writers.flatMap((w) =>
    names
      .filter((p) => p !== w)
      .map((p): [string, string, number] => [w, p, records.filter((r) => applied(r, w) && warned(r, p)).length]),
  );
  const [writer, warner, both] = pairs.sort((a, b) => b[2] - a[2])[0];
  expect(both).toBeGreaterThan(0);
  const dir = proposed({
    [`${writer}.yaml`]: reworded(`${writer}.yaml`, (doc) => {
      (doc.modifications as Array<{ value: string }>)[0].value = 'written by the pull request';
    }),
    [`${warner}.yaml`]: reworded(`${warner}.yaml`, (doc) => {
      doc.message = 'reworded warning: {{reason}}';
    }),
  });
  const { report } = await replay({ dir });
  const mixed = (report?.changes.message ?? []).filter(
    (run) => JSON.stringify(run.before.modifications) !== JSON.stringify(run.after.modifications),
  );
  expect(mixed.length).toBeGreaterThan(0);
  for (const run of mixed) expect(run.policies.map((p) => p.policy)).toEqual(expect.arrayContaining([writer, warner]));
  const tally = report?.byPolicy.find((p) => p.policy === writer);
  expect(tally?.changed).toBe(
    (report?.changes.message ?? [])
      .concat(report?.changes.modifications ?? [])
      .filter((run) => run.policies.some((p) => p.policy === writer)).length,
  );
  expect(tally?.changed).toBeGreaterThanOrEqual(mixed.length + (report?.counts.changed.modifications ?? 0));
});

test('--since and --until replay a time range only', async () => {
  const times = records.map((r) => r.at).sort();
  const since = times[100];
  const until = times[200];
  const { report } = await replay({ dir: recorded.policies, since, until });
  expect(report?.counts.replayed).toBe(100);
  // Files closed before --since are not even read.
  expect(report?.counts.records).toBeLessThan(records.length);
  expect(report?.counts.outOfRange).toBe((report?.counts.records ?? 0) - 100);
  expect(report?.counts.unchanged).toBe(100);
});

test('--since takes a duration back from now (14d), as a CI job replays the recent past', async () => {
  const times = records.map((r) => r.at).sort();
  const now = () => new Date(Date.parse(times[100]) + 3 * 3_600_000);
  let out = '';
  const code = await replayCommand(
    { archive: recorded.archive, dir: recorded.policies, format: 'json', maxListed: '0', since: '3h' },
    {},
    (s) => {
      out += s;
    },
    () => undefined,
    now,
  );
  expect(code).toBe(0);
  const report = JSON.parse(out) as ReplayReport;
  expect(report.since).toBe(times[100]);
  expect(report.counts.replayed).toBe(times.filter((t) => t >= times[100]).length);
});

test('lines it cannot read are warned about and counted; every other run is replayed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'damaged-'));
  scratch.push(dir);
  for (const name of readdirSync(recorded.archive)) copyFileSync(join(recorded.archive, name), join(dir, name));
  const open = readdirSync(dir).find((n) => !n.endsWith('.gz')) as string;
  appendFileSync(join(dir, open), `${JSON.stringify({ ...records[0], format: 2 })}\n{"format":1,"id":"cut sho`);
  writeFileSync(join(dir, 'README.txt'), 'not an archive file');
  const { report, warnings, code } = await replay({ dir: recorded.policies, archive: dir });
  expect(code).toBe(0);
  expect(report?.counts).toMatchObject({ replayed: records.length, unchanged: records.length, problems: 2 });
  expect(warnings.join('')).toContain(
    'archive format 2 is not one this version of preflight-gate knows (it reads format 1)',
  );
  expect(warnings.join('')).toContain('not JSON');
});

test('a rotated gzip file cut short: the runs before the cut are replayed, the file is named as damaged, and replay exits 2', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cut-gzip-'));
  scratch.push(dir);
  for (const name of readdirSync(recorded.archive)) copyFileSync(join(recorded.archive, name), join(dir, name));
  const gz = readdirSync(dir).find((n) => n.endsWith('.gz')) as string;
  const whole = readFileSync(join(dir, gz));
  const inFile = gunzipSync(whole).toString('utf8').trim().split('\n').length;
  writeFileSync(join(dir, gz), whole.subarray(0, Math.floor(whole.length * 0.6)));
  const { report, warnings, code } = await replay({ dir: recorded.policies, archive: dir, failOn: 'any-change' });
  expect(code).toBe(2);
  expect(report?.damagedFiles).toEqual([
    {
      file: join(dir, gz),
      line: expect.any(Number),
      message: expect.stringMatching(
        /^the gzip file is truncated: it ends at byte \d+, in the middle of its compressed data/,
      ),
    },
  ]);
  const read = report?.damagedFiles[0].line ?? 0;
  expect(read).toBeGreaterThan(0);
  expect(read).toBeLessThan(inFile);
  // Every run of the other files and those before the cut are replayed, unchanged; none is lost without a word.
  expect(report?.counts).toMatchObject({ replayed: records.length - inFile + read, problems: 0, damagedFiles: 1 });
  expect(warnings.join('')).toContain(`archive file ${join(dir, gz)} is damaged: the gzip file is truncated`);
  expect(warnings.join('')).not.toContain('audit log');
});

test('markdown: a summary table, newly allowed first and open, rows cut before the comment limit with the rest counted', async () => {
  const { formatMarkdown } = await import('../../src/replay/format-markdown');
  const everything = JSON.stringify({
    kind: 'Policy',
    name: 'deny-all',
    rules: [{ environments: { allowed: ['nowhere'] } }],
  });
  const { report } = await replay({ dir: proposed({ 'deny-all.yaml': everything }) });
  const md = formatMarkdown(report as ReplayReport, {
    limit: 6000,
    runUrl: 'https://steadybit.example/runs/{executionId}',
  });
  expect(md.length).toBeLessThanOrEqual(6000);
  expect(md).toMatch(/^### preflight-gate replay: \d+ archived runs would be decided differently/);
  expect(md).toContain('| Change | Runs |');
  expect(md).toContain('<details><summary>Newly denied (');
  expect(md).toMatch(/…and \d+ more/);
  expect(md).toMatch(
    /\[execution \d+ \(experiment [A-Z]+-\d+, team [A-Z]+, environment [^)]+\)\]\(https:\/\/steadybit\.example\/runs\/\d+\)/,
  );
});

test('the CLI: exit 2 with a clear message for an archive that is not there, a bad time or an unknown placeholder', () => {
  expect(runCli(['replay', '--archive', '/nonexistent/archive', '--dir', 'policies'])).toMatchObject({
    code: 2,
    stderr: 'preflight-gate: archive /nonexistent/archive does not exist\n',
  });
  expect(
    runCli(['replay', '--archive', recorded.archive, '--dir', recorded.policies, '--since', 'yesterday']).stderr,
  ).toContain(
    '--since must be an ISO 8601 time such as 2026-03-02T10:00:00Z or a duration back from now such as 14d, got "yesterday"',
  );
  expect(
    runCli(['replay', '--archive', recorded.archive, '--dir', recorded.policies, '--run-url', 'https://x/{runId}'])
      .stderr,
  ).toContain('unknown placeholder {runId}');
});

test('the CLI reads gzipped and plain files alike and exits 0 on the recording revision', () => {
  const gz = readdirSync(recorded.archive).find((n) => n.endsWith('.gz')) as string;
  const lines = gunzipSync(readFileSync(join(recorded.archive, gz)))
    .toString('utf8')
    .trim()
    .split('\n').length;
  const res = runCli([
    'replay',
    '--archive',
    join(recorded.archive, gz),
    '--dir',
    recorded.policies,
    '--fail-on',
    'any-change',
  ]);
  expect(res.stderr).toBe('');
  expect(res.code).toBe(0);
  expect(res.stdout).toContain(`Replayed ${lines} archived decisions against the policies in ${recorded.policies}`);
  expect(res.stdout).toMatch(new RegExp(`Unchanged\\s+${lines}\\n`));
});

test.each([
  ['an empty archive', '', 'the archive holds no decision'],
  [
    'a file that is not a decision archive (the audit log by mistake)',
    '{"time":"2026-01-05T10:00:00Z","level":"info","message":"preflight decision"}\ngarbage\n',
    '2 archive lines unreadable: not a decision archive (is --archive the audit log, not DECISION_ARCHIVE?)',
  ],
  ['a .jsonl file holding text', 'hello world\n', '1 archive line unreadable: not a decision archive'],
])(
  'nothing replayed from %s: exit 2 with or without --fail-on, saying nothing was checked and why',
  (_what, content, reason) => {
    const dir = mkdtempSync(join(tmpdir(), 'replay-nothing-'));
    try {
      const archive = join(dir, 'decisions.jsonl');
      writeFileSync(archive, content);
      for (const flags of [['--fail-on', 'any-change'], [], ['--format', 'markdown']]) {
        const res = runCli(['replay', '--archive', archive, '--dir', recorded.policies, ...flags]);
        expect(res.stderr).toContain(
          `preflight-gate: no archived decision was replayed, so nothing was checked: ${reason}`,
        );
        expect(res.code).toBe(2);
        expect(res.stdout).not.toContain('no archived run would be decided differently');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('nothing in --since/--until: exit 2, the runs outside the range named as the reason', async () => {
  const { code, warnings } = await replay({
    dir: recorded.policies,
    since: '2000-01-01T00:00:00Z',
    until: '2000-01-02T00:00:00Z',
  });
  expect(code).toBe(2);
  expect(warnings.join('')).toContain(
    `nothing was checked: ${records.length} archived runs are outside --since/--until`,
  );
});
