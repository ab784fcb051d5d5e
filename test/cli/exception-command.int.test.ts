import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { EXAMPLE_PREFLIGHT } from '../helpers/fixtures';
import { runCli, tempDirs } from './run-cli';

/**
 * `preflight-gate exception`: an Exception minted from a denied run, read from the decision archive,
 * the audit log or a payload. The clock is given (--now), so expiries are exact.
 */
const NOW = '2026-01-05T10:00:00Z';
const POLICIES = {
  'no-attacks.yaml':
    'kind: Policy\nname: no-attacks\nrules:\n  - condition: {deny: {in: [ATTACK, {var: steps.actionKinds}]}, reason: "attacks are not allowed"}\n',
  'no-prod.yaml': 'kind: Policy\nname: no-prod\nrules:\n  - environments: { blocked: [prod] }\n',
  'limits.yaml': 'kind: ExceptionSettings\nmaxDuration: 3d\n',
};
const PAYLOAD = readFileSync(EXAMPLE_PREFLIGHT, 'utf8');
const ID = '3f2a9c1e-0000-4000-8000-000000000001';

const payload = JSON.parse(PAYLOAD) as { execution: Record<string, unknown> };
const execution = {
  ...payload.execution,
  environment: 'prod',
  createdBy: { username: 'jane', email: 'jane@example.com' },
};
const archiveLine = {
  format: 1,
  id: ID,
  at: '2026-01-05T09:58:00.000Z',
  revision: 'abc123abc123',
  builtIns: [],
  explain: false,
  payload: { ...payload, execution },
  facts: { needs: [] },
  answer: {
    status: 403,
    body: {
      message: `Denied by 2 policies: [no-attacks] attacks are not allowed; [no-prod] environment prod is blocked (decision ${ID})`,
    },
  },
  results: [
    { policy: 'no-attacks', mode: 'enforce', result: 'deny' },
    { policy: 'no-prod', mode: 'enforce', result: 'deny' },
  ],
};
const auditLine = {
  log: 'audit',
  level: 'warn',
  decisionId: ID,
  time: '2026-01-05T09:58:00.000Z',
  decision: 'deny',
  status: 403,
  experimentKey: 'ADM-1',
  team: 'ADM',
  environment: 'prod',
  message: 'Denied by 1 policy: [no-prod] ...',
  policies: [{ policy: 'no-prod', mode: 'enforce', result: 'deny', reasons: ['environment prod is blocked'] }],
  passed: ['no-attacks'],
};

describe('preflight-gate exception', () => {
  const dir = tempDirs();
  const set = () =>
    dir({
      ...POLICIES,
      'archive.jsonl': `${JSON.stringify(archiveLine)}\n`,
      'audit.jsonl': `{"level":"info","message":"started"}\n${JSON.stringify(auditLine)}\n`,
    });
  const mint = (d: string, args: string[]) =>
    runCli(['exception', '--dir', d, '--now', NOW, '--expires-in', '2h', '--reason', 'game day, CHG-1234', ...args]);
  /** The decision in the audit log of `d`, asked for by jane. */
  const fromAuditLog = (d: string) => [
    '--from-decision',
    ID,
    '--audit-log',
    join(d, 'audit.jsonl'),
    '--requested-by',
    'jane@example.com',
  ];
  const docs = (yaml: string) => parseAllDocuments(yaml).map((d) => d.toJS() as Record<string, unknown>);

  it('from the archive: one exception per denying policy, scoped to the key, environment and version, with the decision in a comment', () => {
    const d = set();
    const res = mint(d, [
      '--from-decision',
      ID,
      '--archive',
      join(d, 'archive.jsonl'),
      '--max-uses',
      '1',
      '--approved-by',
      'joe@example.com',
    ]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(
      new RegExp(
        `^# Minted by \`preflight-gate exception\` from decision ${ID} \\(archive .*archive\\.jsonl:1\\),\n# decided at 2026-01-05T09:58:00\\.000Z by policy revision abc123abc123:\n#   Denied by 2 policies`,
      ),
    );
    expect(res.stdout).toContain(
      '# Waives no-attacks, no-prod for experiment ADM-1 version 5\n# in prod until 2026-01-05T12:00:00Z, for at most 1 run.',
    );
    const match = { experimentKeys: ['ADM-1'], environments: ['prod'], experimentVersions: [5] };
    const common = {
      kind: 'Exception',
      owner: 'jane@example.com',
      requestedBy: 'jane@example.com',
      approvedBy: 'joe@example.com',
      reason: 'game day, CHG-1234',
      expires: '2026-01-05T12:00:00Z',
      maxUses: 1,
      match,
    };
    expect(docs(res.stdout)).toEqual([
      { ...common, name: 'no-attacks-3f2a9c1e', policy: 'no-attacks' },
      { ...common, name: 'no-prod-3f2a9c1e', policy: 'no-prod' },
    ]);
  });

  it('from the audit log (no version there: every version), --out writes a file that validates', () => {
    const d = set();
    const out = join(d, 'waiver.yaml');
    const res = mint(d, [...fromAuditLog(d), '--out', out]);
    expect(res.stderr).toBe('');
    expect(res.stdout).toBe('');
    const written = readFileSync(out, 'utf8');
    expect(written).toContain('for experiment ADM-1 (every version)');
    expect(docs(written)).toEqual([
      expect.objectContaining({
        name: 'no-prod-3f2a9c1e',
        policy: 'no-prod',
        match: { experimentKeys: ['ADM-1'], environments: ['prod'] },
      }),
    ]);
    expect(runCli(['validate', d]).code).toBe(0);
    // The same decision minted again clashes with the file now in the set: refused, nothing printed.
    const again = mint(d, fromAuditLog(d));
    expect(again.stderr).toMatch(
      /the minted exception would not load with the policy set .*duplicate exception name "no-prod-3f2a9c1e"/s,
    );
    expect(again.code).toBe(2);
  });

  it('--out into a directory that does not exist yet: it is made, and the file validates with the set', () => {
    const d = set();
    const out = join(d, 'exceptions', 'game-day', 'waiver.yaml');
    const res = mint(d, [...fromAuditLog(d), '--out', out]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(docs(readFileSync(out, 'utf8'))).toEqual([expect.objectContaining({ name: 'no-prod-3f2a9c1e' })]);
    expect(runCli(['validate', d]).code).toBe(0);
  });

  it('--out whose directory cannot be made (a file stands in its path): exit 2 naming it, no stack trace', () => {
    const d = set();
    const out = join(d, 'limits.yaml', 'waiver.yaml');
    const res = mint(d, [...fromAuditLog(d), '--out', out]);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(`--out ${out}: its directory ${join(d, 'limits.yaml')} cannot be made (`);
    expect(res.stderr).not.toContain('internal error');
    expect(res.stderr).not.toMatch(/^\s+at /m);
  });

  it('from an archived decision whose run does not say who started it: refused without --requested-by, minted with it', () => {
    const { createdBy: _none, ...anonymous } = execution;
    const d = dir({
      ...POLICIES,
      'archive.jsonl': `${JSON.stringify({ ...archiveLine, payload: { ...payload, execution: anonymous } })}\n`,
    });
    const from = ['--from-decision', ID, '--archive', join(d, 'archive.jsonl')];
    const refused = mint(d, from);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(`decision ${ID} does not say who started the run: give --requested-by`);
    const ok = mint(d, [...from, '--requested-by', 'jane@example.com']);
    expect(ok.code).toBe(0);
    expect(docs(ok.stdout)[0]).toMatchObject({ owner: 'jane@example.com', requestedBy: 'jane@example.com' });
  });

  it('from a payload not yet sent: decided now, --any-version leaves the version out', () => {
    const d = dir({ ...POLICIES, 'run.json': PAYLOAD });
    const res = mint(d, ['--payload', join(d, 'run.json'), '--requested-by', 'jane@example.com', '--any-version']);
    expect(res.code).toBe(0);
    expect(docs(res.stdout)).toEqual([
      expect.objectContaining({
        policy: 'no-attacks',
        match: { experimentKeys: ['ADM-1'], environments: ['32009f6e-ff90-47a5-8daa-80f4bb7ae591'] },
      }),
    ]);
  });

  it('from a payload without createdBy and without --requested-by: refused naming the file, not a decision id never shown', () => {
    const d = dir({ ...POLICIES, 'run.json': PAYLOAD });
    const res = mint(d, ['--payload', join(d, 'run.json')]);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(
      `${join(d, 'run.json')} does not say who starts the run (no execution.createdBy with a username or email): give --requested-by <username or email>`,
    );
    expect(res.stderr).not.toMatch(/decision [0-9a-f]{8}-/);
  });

  it('a set that requires a second person: --approved-by is required and may not be who started the run', () => {
    const d = dir({
      ...POLICIES,
      'limits.yaml': 'kind: ExceptionSettings\nmaxDuration: 3d\napproverNotStarter: true\n',
      'archive.jsonl': `${JSON.stringify(archiveLine)}\n`,
    });
    const from = ['--from-decision', ID, '--archive', join(d, 'archive.jsonl')];
    expect(mint(d, from).stderr).toMatch(
      /the policy set requires a second person to approve \(ExceptionSettings\.approverNotStarter, .*limits\.yaml:1\): give --approved-by/,
    );
    expect(mint(d, [...from, '--approved-by', 'JANE@example.com']).stderr).toContain(
      `--approved-by JANE@example.com started the run of decision ${ID}; the policy set requires someone else to approve`,
    );
    const ok = mint(d, [...from, '--approved-by', 'joe@example.com']);
    expect(ok.code).toBe(0);
    expect(docs(ok.stdout)[0]).toMatchObject({ approvedBy: 'joe@example.com', requestedBy: 'jane@example.com' });
  });

  it('--approved-by with spaces around it: the message and the exception name the person without them', () => {
    const d = dir({
      ...POLICIES,
      'limits.yaml': 'kind: ExceptionSettings\nmaxDuration: 3d\napproverNotStarter: true\n',
      'archive.jsonl': `${JSON.stringify(archiveLine)}\n`,
    });
    const from = ['--from-decision', ID, '--archive', join(d, 'archive.jsonl')];
    expect(mint(d, [...from, '--approved-by', '  JANE@example.com ']).stderr).toContain(
      `--approved-by JANE@example.com started the run of decision ${ID};`,
    );
    expect(docs(mint(d, [...from, '--approved-by', ' joe@example.com  ']).stdout)[0]).toMatchObject({
      approvedBy: 'joe@example.com',
    });
    expect(mint(d, [...from, '--approved-by', '   ']).stderr).toContain(
      '--approved-by is blank: name one Steadybit username or email',
    );
  });

  it('a set that requires a second person: a decision that does not say who started the run is refused (review finding)', () => {
    const d = dir({
      ...POLICIES,
      'limits.yaml': 'kind: ExceptionSettings\nmaxDuration: 3d\napproverNotStarter: true\n',
      'audit.jsonl': `${JSON.stringify(auditLine)}\n`,
    });
    const res = mint(d, [...fromAuditLog(d), '--approved-by', 'jane@example.com']);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(
      `cannot tell whether --approved-by jane@example.com started the run of decision ${ID}: the decision does not say who started it (an audit line does not record it: mint from --archive or --payload)`,
    );
  });

  it.each([
    [
      'an expiry past the declared maximum',
      ['--expires-in', '4d'],
      /--expires-in 4d is longer than the maximum of 3d, declared in .*limits\.yaml:1; ask for at most 3 days \(--expires-in 3d\)/,
    ],
    ['a blank reason', ['--reason', ' '], /--reason is blank/],
    ['a zero --max-uses', ['--max-uses', '0'], /--max-uses must be a whole number of runs, at least 1/],
    ['an unknown decision', ['--from-decision', 'nope'], /decision nope is not in the archive/],
  ])('refuses %s (exit 2, nothing on stdout)', (_name, extra, message) => {
    const d = set();
    const args = ['--from-decision', ID, '--archive', join(d, 'archive.jsonl'), ...extra];
    const res = runCli(['exception', '--dir', d, '--now', NOW, '--expires-in', '2h', '--reason', 'x', ...args]);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(message);
    expect(res.code).toBe(2);
  });

  it('a maximum with milliseconds (1d1ms): the refusal offers a value to type, rounded down to whole units', () => {
    const d = dir({
      ...POLICIES,
      'limits.yaml': 'kind: ExceptionSettings\nmaxDuration: 1d1ms\n',
      'archive.jsonl': `${JSON.stringify(archiveLine)}\n`,
    });
    const res = mint(d, ['--from-decision', ID, '--archive', join(d, 'archive.jsonl'), '--expires-in', '2d']);
    expect(res.stderr).toMatch(/; ask for at most 1 day \(--expires-in 1d\)$/m);
    expect(res.code).toBe(2);
  });

  it('refuses an allowed run and a source without a decision id', () => {
    const d = set();
    const allowed = { ...archiveLine, answer: { status: 200, body: { message: 'Allowed' } }, results: [] };
    const d2 = dir({ ...POLICIES, 'archive.jsonl': `${JSON.stringify(allowed)}\n` });
    expect(mint(d2, ['--from-decision', ID, '--archive', join(d2, 'archive.jsonl')]).stderr).toContain(
      `decision ${ID} allowed the run: nothing to waive`,
    );
    expect(mint(d, ['--archive', join(d, 'archive.jsonl')]).stderr).toContain('--archive needs --from-decision');
    expect(mint(d, ['--from-decision', ID]).stderr).toContain('give exactly one of --archive, --audit-log');
  });
});
