import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signedPost } from '../helpers/signed-post';
import { preflightWith } from '../helpers/fixtures';
import { startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process';
import { startFakeSteadybit, type FakeSteadybit } from '../helpers/fake-steadybit';
import { startRedis, type TestRedis } from '../state/redis-server';
import { cancels, runningOnFake } from './guard-harness';
import { frozen, OPEN } from './incident-freeze';

jest.setTimeout(60_000);

const SECRET = 'guard-process-secret';
const RUN = 4711;
const CANCEL = `/api/experiments/executions/${RUN}/cancel`;

let redis: TestRedis;
let fake: FakeSteadybit;
let dir: string;
const procs: ServerProcess[] = [];
beforeAll(async () => {
  [redis, fake] = await Promise.all([startRedis(), startFakeSteadybit()]);
  dir = mkdtempSync(join(tmpdir(), 'guard-processes-'));
  writeFileSync(join(dir, 'freeze.yaml'), OPEN);
});
afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop('SIGKILL')));
  await fake.stop();
  await redis.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** The built service with the guard ticking every second and a 4 s lease (its cancel is bounded by 2 s). */
async function replica(): Promise<ServerProcess> {
  const proc = await startServerProcess({
    POLICY_DIR: dir,
    POLICY_WATCH: 'false',
    WEBHOOK_SECRET: SECRET,
    AUDIT_LOG: 'off',
    REDIS_URL: redis.url,
    STEADYBIT_URL: fake.url,
    STEADYBIT_TOKEN: 'test-token',
    GUARD_INTERVAL_SECONDS: '1',
    GUARD_LEASE_SECONDS: '4',
  });
  procs.push(proc);
  return proc;
}

async function preflight(proc: ServerProcess): Promise<number> {
  const run = preflightWith((p) => {
    p.execution.id = RUN;
  });
  const res = await signedPost(`${proc.url}/preflight`, run, SECRET);
  return res.status;
}

/** Who holds the run's cancel lease (`host:pid`), from Redis itself. */
async function leaseOwner(): Promise<string> {
  const [key] = (await redis.cli('--scan', '--pattern', `*guard:lease:${RUN}`)).split('\n').filter(Boolean);
  return key ? redis.cli('GET', key) : '';
}

test('a replica killed (SIGKILL) while its cancel is in flight: the other replica stops the run once the lease runs out, exactly one cancel succeeds', async () => {
  const [a, b] = await Promise.all([replica(), replica()]);
  runningOnFake(fake, RUN);
  expect(await preflight(a)).toBe(200);
  await waitFor(async () => (await redis.cli('--scan', '--pattern', `*guard:run:${RUN}`)) !== '', 'the run to be kept');

  // The first cancel the Platform API gets hangs (and would fail): its replica is killed while it waits.
  fake.faults.push({ path: CANCEL, delayMs: 8000, status: 503 });
  writeFileSync(join(dir, 'freeze.yaml'), frozen());
  for (const p of [a, b]) p.child.kill('SIGHUP');

  await waitFor(async () => cancels(fake, RUN).length === 1, 'the first replica to send its cancel');
  const owner = await leaseOwner();
  const holder = [a, b].find((p) => owner.endsWith(`:${p.child.pid}`));
  if (!holder) throw new Error(`the lease is held by ${JSON.stringify(owner)}, not by either replica`);
  const other = holder === a ? b : a;
  await holder.stop('SIGKILL');
  const killedAt = Date.now();
  // Killed while waiting for the answer: it had not given up on the cancel (bounded by half the lease).
  expect(holder.output()).not.toMatch(/cancel failed/);

  await waitFor(async () => other.output().includes(`guard: stopped run ${RUN}`), 'the other replica to stop the run');
  // Not before the killed replica's lease ran out: 4 s from its claim, less than 2 s before the kill.
  expect(Date.now() - killedAt).toBeGreaterThan(2000);
  expect(cancels(fake, RUN)).toHaveLength(2);
  const accepted = () => fake.answers.filter((x) => x.path === CANCEL && x.status === 202);
  expect(accepted()).toHaveLength(1);
  expect(await leaseOwner()).toMatch(new RegExp(`^stopped:.*:${other.child.pid}$`));
  expect(fake.runs.get(RUN)).toMatchObject({ state: 'CANCELED' });

  // Two more ticks: nobody cancels it again.
  await new Promise((r) => setTimeout(r, 2000));
  expect(cancels(fake, RUN)).toHaveLength(2);
  expect(accepted()).toHaveLength(1);
  expect(fake.specProblems()).toEqual([]);
});
