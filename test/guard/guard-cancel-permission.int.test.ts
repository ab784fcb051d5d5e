import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PERMISSION_UNKNOWN } from '../../src/guard/cancel-permission';
import { preflightWith } from '../helpers/fixtures';
import { startFakeSteadybit, type FakeSteadybit } from '../helpers/fake-steadybit';
import { startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process';
import { signedPost } from '../helpers/signed-post';
import { cancels, runningOnFake } from './guard-harness';
import { frozen, OPEN } from './incident-freeze';

jest.setTimeout(60_000);

const SECRET = 'guard-permission-secret';
const RUN = 4712;

let fake: FakeSteadybit;
let dir: string;
let secrets: string;
let proc: ServerProcess | undefined;
beforeAll(async () => {
  // The read token reads environments, the kill switch and the runs, but Steadybit refuses its cancels.
  fake = await startFakeSteadybit({ tokens: ['read-token', 'cancel-token'] });
  fake.cannotCancel.add('read-token');
  dir = mkdtempSync(join(tmpdir(), 'guard-permission-'));
  secrets = mkdtempSync(join(tmpdir(), 'guard-permission-token-'));
});
afterAll(async () => {
  await proc?.stop('SIGKILL');
  await fake.stop();
  for (const d of [dir, secrets]) rmSync(d, { recursive: true, force: true });
});

interface GuardReadiness {
  canStop: boolean | 'unknown';
  message?: string;
  refusedTeams?: string[];
  stops: number;
}
const guardReadiness = async (p: ServerProcess): Promise<GuardReadiness> =>
  ((await (await fetch(`${p.url}/readyz`)).json()) as { guard: GuardReadiness }).guard;
const unauthorizedCancels = async (p: ServerProcess): Promise<number> => {
  const text = await (await fetch(`${p.url}/metrics`)).text();
  return Number(/^preflight_guard_cancel_failures_total\{reason="unauthorized"\} (\d+)$/m.exec(text)?.[1] ?? 'NaN');
};

test('the built service with a token that may not cancel: /readyz says canStop false with the reason while the run goes on, and true once a cancel succeeds', async () => {
  writeFileSync(join(dir, 'freeze.yaml'), OPEN);
  const tokenFile = join(secrets, 'token');
  writeFileSync(tokenFile, 'read-token');
  proc = await startServerProcess({
    POLICY_DIR: dir,
    POLICY_WATCH: 'false',
    WEBHOOK_SECRET: SECRET,
    AUDIT_LOG: 'off',
    STEADYBIT_URL: fake.url,
    STEADYBIT_TOKEN_FILE: tokenFile,
    STEADYBIT_RATE_BURST: '50',
    STEADYBIT_RATE_PER_MINUTE: '100',
    GUARD_INTERVAL_SECONDS: '1',
  });
  const p = proc;

  // Start-up cannot find out without side effects, and says so (docs/guard.md, "The token").
  const startLine = p
    .output()
    .split('\n')
    .find((l) => l.includes('guard: runs in progress are judged again'));
  expect(startLine && JSON.parse(startLine)).toMatchObject({
    canStop: 'unknown',
    message: `guard: runs in progress are judged again; whether the token may cancel them is ${PERMISSION_UNKNOWN}`,
  });
  expect(await guardReadiness(p)).toMatchObject({ canStop: 'unknown', message: PERMISSION_UNKNOWN });

  runningOnFake(fake, RUN);
  const payload = preflightWith((pl) => {
    pl.execution.id = RUN;
  });
  expect((await signedPost(`${p.url}/preflight`, payload, SECRET)).status).toBe(200);
  writeFileSync(join(dir, 'freeze.yaml'), frozen());
  p.child.kill('SIGHUP');

  await waitFor(async () => cancels(fake, RUN).length >= 2, 'two refused cancels');
  await waitFor(async () => (await guardReadiness(p)).canStop === false, '/readyz to say the guard cannot stop');
  const refused = await guardReadiness(p);
  expect(refused).toMatchObject({ canStop: false, refusedTeams: ['ADM'], stops: 0 });
  expect(refused.message).toMatch(
    new RegExp(
      `^the token may not cancel runs of team ADM: the Platform API refused to cancel run ${RUN} at .*HTTP 403`,
    ),
  );
  expect(fake.runs.get(RUN)).toMatchObject({ state: 'RUNNING' });
  expect(await unauthorizedCancels(p)).toBeGreaterThanOrEqual(1);
  expect(p.output()).toMatch(new RegExp(`run ${RUN} must be stopped but the cancel failed \\(HTTP 403`));
  // Every refused cancel is an error line, the change itself is said once.
  expect(p.output().match(/"guard: the token may not cancel runs of team ADM/g)).toHaveLength(1);

  // The Secret is rotated to a token that may cancel (the file is read at every call): the next tick stops the run.
  writeFileSync(tokenFile, 'cancel-token');
  await waitFor(async () => (await guardReadiness(p)).canStop === true, '/readyz to say the guard can stop again');
  expect(await guardReadiness(p)).toMatchObject({ canStop: true, stops: 1 });
  expect(await guardReadiness(p)).not.toHaveProperty('message');
  expect(fake.runs.get(RUN)).toMatchObject({ state: 'CANCELED' });
  expect(p.output()).toContain(`guard: stopped run ${RUN}`);
  expect(fake.specProblems()).toEqual([]);
});
