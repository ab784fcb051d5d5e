import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PreflightPayload } from '../../src/payload/types';
import { member, startFakeSteadybit, type FakeSteadybit } from '../helpers/fake-steadybit';
import { operationSchema } from '../helpers/platform-spec';
import { ROOT, startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process';
import { signedPost } from '../helpers/signed-post';
import { runCli } from '../cli/run-cli';

/**
 * Consent that travels with the target, served: the built service (node dist/main.js) on the
 * shipped example examples/target-owners (team CHECKOUT keeps checkout-consent on the workloads
 * labelled team=checkout), reading the members of Steadybit team CHECKOUT from the fake Platform
 * API (GET /api/teams/CHECKOUT/members, its answers checked against TeamMembersAO). A run of team
 * SHOP reaching checkout's pod is denied, naming the owners and the pod; the exception a CHECKOUT
 * member approved lets SHOP-7 through, the one an outsider approved never lets SHOP-9 through; with
 * the API down before the members were read, no exception waives. The decision archive records
 * the members read, and `replay` decides the archived runs again as the service did.
 */
const EXAMPLE = join(ROOT, 'examples', 'target-owners');
const SECRET = 'owners-secret';
const MAX = { username: 'ag1hb7ap-d299-47ab-998f-c2a53b433820', email: 'max@steadybit.com' };
let steadybit: FakeSteadybit;
let service: ServerProcess;
let dir: string;

const exampleRun = JSON.parse(readFileSync(join(EXAMPLE, 'run.json'), 'utf8')) as PreflightPayload;
const run = (id: number, experimentKey: string, teamKey = 'SHOP'): PreflightPayload => ({
  ...exampleRun,
  execution: { ...exampleRun.execution, id, experimentKey, teamKey },
});

async function post(body: PreflightPayload) {
  const res = await signedPost(`${service.url}/preflight`, body, SECRET);
  return {
    status: res.status,
    id: res.headers.get('x-preflight-decision-id') ?? '',
    message: ((await res.json()) as { message: string }).message,
  };
}

beforeAll(async () => {
  steadybit = await startFakeSteadybit();
  steadybit.teamMembers = {
    CHECKOUT: [
      member(MAX.username, MAX.email, 'OWNER'),
      member('c0ffee00-0000-4000-8000-000000000001', 'kim@example.com'),
    ],
  };
  dir = mkdtempSync(join(tmpdir(), 'pg-owners-'));
});
afterAll(async () => {
  await service?.stop();
  expect(steadybit.specProblems()).toEqual([]);
  await steadybit.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("another team's run on owned targets: denied, waived by an owner's approval, never by an outsider's", async () => {
  service = await startServerProcess({
    POLICY_DIR: EXAMPLE,
    POLICY_WATCH: 'false',
    WEBHOOK_SECRET: SECRET,
    DECISION_ARCHIVE: join(dir, 'decisions.jsonl'),
    STEADYBIT_URL: steadybit.url,
    STEADYBIT_TOKEN: 'test-token',
    STEADYBIT_PREFLIGHT_WAIT_MS: '200',
  });
  // Down once the service has read the runs in progress (the emergency stop needs them), and before
  // any preflight made it read the members of CHECKOUT: no approver can be told to be one of them.
  await waitFor(
    async () => steadybit.answers.some((a) => a.path === '/api/experiments/executions' && a.status === 200),
    'the first read of the runs in progress',
  );
  steadybit.down = true;
  let nextId = 100;

  const unread = await post(run(nextId++, 'SHOP-7'));
  expect(unread.status).toBe(403);
  expect(unread.message).toContain(
    'cannot tell whether max@steadybit.com, who approved exception "shop-gameday-on-checkout", is a member of team CHECKOUT, which owns the targets this run reaches: the members of Steadybit team CHECKOUT could not be read from the Steadybit Platform API',
  );

  steadybit.down = false;
  // The approval of a member of CHECKOUT waives the policy once the members are read.
  await waitFor(async () => (await post(run(nextId++, 'SHOP-7'))).status === 200, 'the members of team CHECKOUT');
  const approved = await post(run(1, 'SHOP-7'));
  expect([approved.status, approved.message]).toEqual([200, expect.stringMatching(/^Allowed/)]);
  expect(operationSchema('/api/teams/CHECKOUT/members', 'GET', 'response')).toBe('TeamMembersAO'); // checked in afterAll

  const outsider = await post(run(2, 'SHOP-9'));
  expect(outsider.status).toBe(403);
  expect(outsider.message).toContain(
    '[checkout-consent] step "com.steadybit.extension_kubernetes.delete_pod" (steps[0]) runs com.steadybit.extension_kubernetes.delete_pod, an action of kind ATTACK, which is blocked; this run of team SHOP reaches targets owned by team CHECKOUT (k8s.label.team): prod-eu/shop/checkout-7d9f8c6b5-x2k4p (k8s.label.team=checkout); an exception to this policy needs an approver from team CHECKOUT (exception "shop-load-test-on-checkout" was approved by lead@shop.example.com, who is not a member of team CHECKOUT, which owns the targets this run reaches, so it does not waive this policy; ask a member of team CHECKOUT to approve it)',
  );

  const unwaived = await post(run(3, 'SHOP-8'));
  expect(unwaived.status).toBe(403);
  expect(unwaived.message).toContain('reaches targets owned by team CHECKOUT (k8s.label.team)');
  // The owners' own run needs nobody's consent.
  expect((await post(run(4, 'CHECKOUT-3', 'CHECKOUT'))).status).toBe(200);

  // The archive holds the members read, so replay judges the approvers as the service did.
  const records = () =>
    readFileSync(join(dir, 'decisions.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: string; facts: { teams?: Record<string, unknown> } });
  await waitFor(async () => records().some((r) => r.id === unwaived.id), 'the archived decisions');
  expect(records().find((r) => r.id === approved.id)?.facts.teams?.CHECKOUT).toEqual({
    members: [
      { username: MAX.username, email: MAX.email },
      { username: 'c0ffee00-0000-4000-8000-000000000001', email: 'kim@example.com' },
    ],
  });
  const replayed = runCli(['replay', '--archive', join(dir, 'decisions.jsonl'), '--dir', EXAMPLE, '--format', 'json']);
  expect(replayed.stderr).toBe('');
  const { counts } = JSON.parse(replayed.stdout) as {
    counts: { records: number; replayed: number; unchanged: number; notReplayable: number; irreproducible: number };
  };
  expect(counts).toMatchObject({ notReplayable: 0, irreproducible: 0 });
  expect([counts.replayed, counts.unchanged]).toEqual([counts.records, counts.records]);
}, 60_000);
