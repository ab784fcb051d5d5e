import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { member, startFakeSteadybit, type FakeSteadybit } from '../helpers/fake-steadybit';
import { signedPost } from '../helpers/signed-post';
import { preflightWith } from '../helpers/fixtures';
import { operationSchema } from '../helpers/platform-spec';
import { startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process';
import { runCli } from '../cli/run-cli';
import { startRedis, type TestRedis } from '../state/redis-server';

/**
 * The whole loop against the started service (node dist/main.js), two replicas sharing one
 * redis-server: a run is denied; `preflight-gate exception` mints a waiver for one run from the
 * audit log; both replicas reload; the run is allowed once (at either replica) and denied again,
 * saying the exception is used up. The policy excludes the members of Steadybit team SRE
 * (`createdByTeams`), which each replica reads from the fake Platform API (GET
 * /api/teams/SRE/members, its answers checked against TeamMembersAO): both replicas give a member
 * and a non-member the same answer, and while the API is down and the members were never read
 * both deny the member, saying why (fail closed: unknown never widens an exclude).
 */
const SECRET = 'approval-secret';
/** A member of team SRE (the spec's UserSummaryAO example) and someone who is not. */
const MEMBER = { username: 'ag1hb7ap-d299-47ab-998f-c2a53b433820', name: 'Max Mustermann', email: 'max@steadybit.com' };
const OUTSIDER = { username: 'b2c4e6f8-1a3b-4c5d-8e9f-0a1b2c3d4e5f', name: 'Jane Doe', email: 'jane@example.com' };
let redis: TestRedis;
let steadybit: FakeSteadybit;
let root: string;
const procs: ServerProcess[] = [];

async function post(proc: ServerProcess, body: object) {
  const res = await signedPost(`${proc.url}/preflight`, body, SECRET);
  return {
    status: res.status,
    id: res.headers.get('x-preflight-decision-id') ?? '',
    message: ((await res.json()) as { message: string }).message,
  };
}
const exceptions = async (proc: ServerProcess) =>
  ((await (await fetch(`${proc.url}/readyz`)).json()) as { exceptions: number }).exceptions;
const run = (id: number, starter: typeof MEMBER = OUTSIDER) =>
  preflightWith((p) => {
    p.execution.id = id;
    p.execution.environment = 'production';
    p.execution.createdBy = { ...starter };
  });

beforeAll(async () => {
  redis = await startRedis();
  steadybit = await startFakeSteadybit();
  steadybit.teamMembers = { SRE: [member(MEMBER.username, MEMBER.email, 'OWNER'), member('sre-2', null)] };
  root = mkdtempSync(join(tmpdir(), 'pg-approval-'));
  writeFileSync(
    join(root, 'no-prod.yaml'),
    [
      'kind: Policy',
      'name: no-production',
      'exclude: { createdByTeams: [SRE] }',
      'rules:',
      '  - environments: { blocked: [production] }',
      'message: "{{reason}}; to ask for an exception: preflight-gate exception --from-decision {{decisionId}} --audit-log <file> --expires-in 2h --max-uses 1 --reason ..."',
      '',
    ].join('\n'),
  );
  writeFileSync(join(root, 'settings.yaml'), 'kind: ExceptionSettings\nmaxDuration: 1d\n');
});
afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop()));
  expect(steadybit.specProblems()).toEqual([]);
  await steadybit.stop();
  await redis.stop();
  rmSync(root, { recursive: true, force: true });
});

test('deny -> mint -> reload -> allowed once -> denied again, across two replicas sharing Redis', async () => {
  const start = async (name: string) => {
    const proc = await startServerProcess({
      POLICY_DIR: root,
      POLICY_WATCH: 'false',
      WEBHOOK_SECRET: SECRET,
      REDIS_URL: redis.url,
      AUDIT_LOG: join(root, `audit-${name}.jsonl`),
      STEADYBIT_URL: steadybit.url,
      STEADYBIT_TOKEN: 'test-token',
      // A preflight waits this long for the team's members before deciding on what it has.
      STEADYBIT_PREFLIGHT_WAIT_MS: '200',
    });
    procs.push(proc);
    return proc;
  };
  const [a, b] = [await start('a'), await start('b')];
  let nextId = 100;

  // The Platform API down before either replica has read team SRE: the member cannot be told from
  // anyone else, so both replicas deny and say why.
  steadybit.down = true;
  for (const proc of [a, b]) {
    const unknown = await post(proc, run(nextId++, MEMBER));
    expect(unknown.status).toBe(403);
    expect(unknown.message).toContain(
      'cannot decide whether the run is in exclude.createdByTeams (SRE): the members of Steadybit team SRE could not be read from the Steadybit Platform API',
    );
  }
  steadybit.down = false;
  // Back up: each replica reads the members itself, and both let the member run.
  await waitFor(
    async () =>
      (await post(a, run(nextId++, MEMBER))).status === 200 && (await post(b, run(nextId++, MEMBER))).status === 200,
    'both replicas to read the members of team SRE',
  );
  expect(operationSchema('/api/teams/SRE/members', 'GET', 'response')).toBe('TeamMembersAO'); // checked in afterAll
  expect(
    steadybit.answers.filter((x) => x.path === '/api/teams/SRE/members' && x.status === 200).length,
  ).toBeGreaterThanOrEqual(2);

  const denied = await post(a, run(1));
  expect(denied.status).toBe(403);
  expect(denied.message).toContain(
    `to ask for an exception: preflight-gate exception --from-decision ${denied.id} --audit-log`,
  );

  const minted = runCli([
    'exception',
    '--from-decision',
    denied.id,
    '--audit-log',
    join(root, 'audit-a.jsonl'),
    '--dir',
    root,
    '--expires-in',
    '2h',
    '--max-uses',
    '1',
    '--reason',
    'game day CHG-1',
    '--requested-by',
    'jane@example.com',
    '--out',
    join(root, 'waiver.yaml'),
  ]);
  expect(minted.stderr).toBe('');
  expect(readFileSync(join(root, 'waiver.yaml'), 'utf8')).toContain(`from decision ${denied.id}`);

  for (const proc of [a, b]) proc.child.kill('SIGHUP');
  await waitFor(
    async () => (await exceptions(a)) === 1 && (await exceptions(b)) === 1,
    'both replicas to load the exception',
  );

  const allowed = await post(b, run(2));
  expect(allowed.status).toBe(200);
  expect(allowed.message).toMatch(/^Allowed/);
  // The audit line is written as the answer finishes: read it once it is there.
  const auditLine = () =>
    readFileSync(join(root, 'audit-b.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.includes(allowed.id))
      .map((l) => JSON.parse(l) as { policies: unknown[] })[0];
  await waitFor(async () => auditLine() !== undefined, 'the audit line of the allowed run');
  const line = auditLine();
  expect(line?.policies).toEqual([
    expect.objectContaining({
      policy: 'no-production',
      result: 'skipped',
      exception: expect.stringMatching(/^no-production-[0-9a-f]{8}$/),
      reasons: [expect.stringContaining(', use 1 of 1: game day CHG-1)')],
    }),
  ]);

  for (const proc of [a, b]) {
    const again = await post(proc, run(3));
    expect(again.status).toBe(403);
    expect(again.message).toMatch(
      /exception "no-production-[0-9a-f]{8}" is used up \(1 of 1 run waived\) and no longer waives this policy; ask for a new one/,
    );
    // A member of SRE needs no exception, at either replica.
    const member = await post(proc, run(nextId++, MEMBER));
    expect([member.status, member.message]).toEqual([200, expect.stringMatching(/^Allowed/)]);
  }
}, 60_000);
