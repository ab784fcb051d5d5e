import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signedPost } from '../helpers/signed-post';
import { preflightWith } from '../helpers/fixtures';
import { startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process';
import { startRedis, type TestRedis } from '../state/redis-server';

/**
 * A one-use exception across restarts of the service (node dist/main.js), issue 49: a count the
 * configuration cannot keep never waives; a count it keeps (Redis) survives the restart.
 */
const SECRET = 'uses-secret';
let dir: string;
let redis: TestRedis;
const procs: ServerProcess[] = [];

const readyState = async (proc: ServerProcess) =>
  ((await (await fetch(`${proc.url}/readyz`)).json()) as { state: Record<string, unknown> }).state;

async function start(env: Record<string, string>) {
  const proc = await startServerProcess({ POLICY_DIR: dir, POLICY_WATCH: 'false', WEBHOOK_SECRET: SECRET, ...env });
  procs.push(proc);
  // /readyz answers before the store is reached: a preflight sent earlier is refused (503).
  await waitFor(async () => (await readyState(proc)).available === true, 'the state store to be reachable');
  return proc;
}
async function stop(proc: ServerProcess, signal: NodeJS.Signals = 'SIGTERM') {
  expect(await proc.stop(signal)).toBe(signal === 'SIGTERM' ? 0 : null);
  procs.splice(procs.indexOf(proc), 1);
}
async function preflight(proc: ServerProcess, id: number) {
  const body = preflightWith((p) => {
    p.execution.id = id;
    p.execution.environment = 'production';
  });
  const res = await signedPost(`${proc.url}/preflight`, body, SECRET);
  return { status: res.status, message: ((await res.json()) as { message: string }).message };
}

beforeAll(async () => {
  redis = await startRedis();
  dir = mkdtempSync(join(tmpdir(), 'pg-uses-'));
  writeFileSync(
    join(dir, 'no-production.yaml'),
    'kind: Policy\nname: no-production\nrules:\n  - environments: { blocked: [production] }\n',
  );
  // The service decides on the real clock: the exception runs for an hour from now.
  const expires = new Date(Date.now() + 3_600_000).toISOString();
  writeFileSync(
    join(dir, 'once.yaml'),
    `kind: Exception\nname: once\npolicy: no-production\nowner: jane\nreason: game day\nexpires: "${expires}"\nmaxUses: 1\nmatch: { experimentKeys: [ADM-1] }\n`,
  );
});
afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop()));
  await redis.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('an exception with maxUses: 1 across a restart', () => {
  test('in memory it waives no run: the denial, /readyz and the start-up log say why and what to set', async () => {
    const proc = await start({});
    const first = await preflight(proc, 1);
    expect(first.status).toBe(403);
    expect(first.message).toContain(
      'cannot tell how often exception "once" was used (maxUses needs a use count that survives a restart and is shared by every replica, and this service keeps its state in memory only: set REDIS_URL',
    );
    expect(first.message).toContain('or EXCEPTION_USES_FILE to a file on a persistent volume with one replica');
    expect((await readyState(proc)).exceptionUses).toMatch(
      /^not counted: an exception with maxUses does not waive; maxUses needs a use count that survives a restart/,
    );
    expect(proc.output()).toContain('exceptions with maxUses do not waive any run');
    await stop(proc);
  });

  test('in Redis it waives one run, and after a restart the second run is denied as used up', async () => {
    const env = { REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'restart-test:' };
    const before = await start(env);
    expect(await preflight(before, 1)).toEqual({ status: 200, message: expect.anything() });
    await stop(before);
    const after = await start(env);
    const second = await preflight(after, 2);
    expect(second.status).toBe(403);
    expect(second.message).toContain('exception "once" is used up (1 of 1 run waived)');
    expect(after.output()).not.toContain('exceptions with maxUses do not waive any run');
  });

  test('with EXCEPTION_USES_FILE it waives one run, and after a crash (SIGKILL) the second run is denied as used up', async () => {
    const file = join(dir, '..', `${dir.split('/').pop()}-uses.jsonl`);
    const before = await start({ EXCEPTION_USES_FILE: file });
    expect((await readyState(before)).exceptionUses).toBe(
      `counted in EXCEPTION_USES_FILE ${file}, read again at start-up; for one process only (several replicas need Redis)`,
    );
    expect((await preflight(before, 1)).status).toBe(200);
    // Written and synced before the answer: a crash right after it keeps the use.
    await stop(before, 'SIGKILL');
    expect(readFileSync(file, 'utf8')).toMatch(/^\{"exception":"once","maxUses":1,"at":"[^"]+"\}\n$/);
    const after = await start({ EXCEPTION_USES_FILE: file });
    const second = await preflight(after, 2);
    expect(second.status).toBe(403);
    expect(second.message).toContain('exception "once" is used up (1 of 1 run waived)');
    await stop(after);

    appendFileSync(file, 'not a use\n');
    const refused = await startServerProcess(
      { POLICY_DIR: dir, WEBHOOK_SECRET: SECRET, EXCEPTION_USES_FILE: file },
      { waitReady: false },
    );
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toContain(`EXCEPTION_USES_FILE ${file}:2 is not a use of an exception`);
    rmSync(file);
  });

  test('EXCEPTION_USES_FILE with Redis is refused at start: the uses are counted in Redis', async () => {
    const refused = await startServerProcess(
      { POLICY_DIR: dir, WEBHOOK_SECRET: SECRET, REDIS_URL: redis.url, EXCEPTION_USES_FILE: join(dir, 'x.jsonl') },
      { waitReady: false },
    );
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toContain('EXCEPTION_USES_FILE is set with Redis');
  });
});
