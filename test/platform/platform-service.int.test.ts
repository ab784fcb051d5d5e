import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signedPost } from '../helpers/signed-post';
import { preflightWith } from '../helpers/fixtures';
import { environment, executionItem, type FakeSteadybit } from '../helpers/fake-steadybit';
import { fakeSteadybitEachTest } from '../helpers/fake-steadybit-each-test';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

const SECRET = 'platform-secret';
const PROD = '2f0b0ab4-7c52-4b8e-9a0e-2d0a3b7a1c11';
let fake: FakeSteadybit;
let dir: string;
const procs: ServerProcess[] = [];

async function post(proc: ServerProcess, path: string, body: object) {
  const res = await signedPost(`${proc.url}${path}`, body, SECRET);
  return { status: res.status, message: ((await res.json()) as { message: string }).message };
}
const preflight = (id: number, env: string) =>
  preflightWith((p) => {
    p.execution.id = id;
    p.execution.environment = env;
  });
const readyz = async (proc: ServerProcess) => {
  const res = await fetch(`${proc.url}/readyz`);
  return {
    status: res.status,
    body: (await res.json()) as { platform: Record<string, unknown>; state: { restart?: string } },
  };
};
async function start(env: Record<string, string> = {}) {
  const proc = await startServerProcess({
    POLICY_DIR: dir,
    POLICY_WATCH: 'false',
    WEBHOOK_SECRET: SECRET,
    STEADYBIT_URL: fake.url,
    STEADYBIT_TOKEN: 'test-token',
    STEADYBIT_TIMEOUT_MS: '500',
    ...env,
  });
  procs.push(proc);
  return proc;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pg-platform-'));
  writeFileSync(
    join(dir, 'one-at-a-time.yaml'),
    'kind: Policy\nname: one-at-a-time\nrules:\n  - concurrency: {maxRunning: 1, per: environment}\n',
  );
});
// The replicas stop before the fake does: afterEach hooks run in the order they are declared.
afterEach(async () => {
  await Promise.all(procs.splice(0).map((p) => p.stop()));
});
fakeSteadybitEachTest((started) => {
  fake = started;
  fake.environments = [environment(PROD, 'production')];
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the service (node dist/main.js) with STEADYBIT_URL', () => {
  test('a restarted in-memory replica denies while the stop is engaged, without any event', async () => {
    fake.killswitch = {
      active: true,
      engagedBy: 'u-7',
      engagedByDetails: { username: 'u-7', name: 'Jane Doe' },
      engaged: new Date(Date.now() - 60_000).toISOString(),
    };
    const proc = await start();
    expect(await post(proc, '/preflight', preflight(1, PROD))).toEqual({
      status: 403,
      message: expect.stringContaining('[emergency-stop (built-in)] the emergency stop is engaged (by Jane Doe since'),
    });
    expect(proc.output()).not.toContain('test-token');
  });

  test('runs running at start-up count against concurrency', async () => {
    fake.executions = [
      executionItem(41, {
        state: 'RUNNING',
        environment: 'production',
        created: new Date(Date.now() - 60_000).toISOString(),
      }),
    ];
    const proc = await start();
    expect(await post(proc, '/preflight', preflight(42, PROD))).toEqual({
      status: 403,
      message: expect.stringContaining(`[one-at-a-time] environment ${PROD} already has 1 running execution`),
    });
  });

  test('platform down at start-up with in-memory state: the stop cannot be vouched for, so runs are denied saying why; /readyz stays 200 and shows the sync', async () => {
    fake.down = true;
    const proc = await start();
    expect(await post(proc, '/preflight', preflight(1, PROD))).toEqual({
      status: 403,
      message: expect.stringContaining(
        'cannot decide: the emergency stop cannot be checked: this replica keeps state in memory, restarted, and has not read the kill switch',
      ),
    });
    const ready = await readyz(proc);
    expect(ready.status).toBe(200);
    expect(ready.body.platform).toMatchObject({
      url: fake.url,
      synced: false,
      killswitch: { lastError: expect.stringContaining('HTTP 503') },
    });
  });

  test('token rotation through STEADYBIT_TOKEN_FILE reaches the running process without a restart', async () => {
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, 'old-token\n');
    fake.tokens = new Set(['old-token']);
    const proc = await start({
      STEADYBIT_TOKEN: '',
      STEADYBIT_TOKEN_FILE: tokenFile,
      STEADYBIT_SYNC_INTERVAL_SECONDS: '5',
    });
    fake.tokens = new Set(['new-token']);
    writeFileSync(tokenFile, 'new-token\n');
    const seen = fake.requests.length;
    await new Promise((r) => setTimeout(r, 6000));
    const later = fake.requests.slice(seen);
    expect(later.length).toBeGreaterThan(0);
    expect(new Set(later.map((r) => r.authorization))).toEqual(new Set(['Bearer new-token']));
    expect((await readyz(proc)).body.platform).toMatchObject({ killswitch: { syncedAt: expect.any(String) } });
    expect((await readyz(proc)).body.platform.killswitch).not.toHaveProperty('lastError');
    expect(proc.output()).not.toMatch(/old-token|new-token/);
  }, 30_000);

  test('/readyz shows when each sync last succeeded', async () => {
    const proc = await start();
    const ready = await readyz(proc);
    expect(ready.status).toBe(200);
    expect(ready.body.platform).toMatchObject({
      synced: true,
      environments: { count: 1, syncedAt: expect.any(String) },
      killswitch: { syncedAt: expect.any(String) },
      executions: { syncedAt: expect.any(String) },
    });
    expect(ready.body.state.restart).toMatch(
      /^a restart rebuilds the emergency stop, the running runs and the cool-down and quota history from the Steadybit Platform API/,
    );
    const metrics = await (await fetch(`${proc.url}/metrics`)).text();
    expect(metrics).toMatch(/preflight_platform_api_calls_total\{endpoint="killswitch",outcome="ok"\} 1/);
    expect(metrics).toMatch(/preflight_platform_last_sync_timestamp_seconds\{sync="killswitch"\} \d+/);
    expect(metrics).toMatch(/preflight_platform_cache_age_seconds\{sync="environments"\} /);
  });
});

describe('environment names from the platform, against the service process', () => {
  const STAGING = '5b8c1f0e-1111-4c4c-9d9d-0a0a0a0a0a0a';
  let namesDir: string;
  beforeAll(() => {
    namesDir = mkdtempSync(join(tmpdir(), 'pg-names-'));
    writeFileSync(
      join(namesDir, 'no-production.yaml'),
      'kind: Policy\nname: no-production\nrules:\n  - environments: {blocked: [production]}\n',
    );
  });
  afterAll(() => rmSync(namesDir, { recursive: true, force: true }));

  test('policies match the Steadybit name; an id the platform does not list cannot decide', async () => {
    fake.environments.push(environment(STAGING, 'staging'));
    const proc = await start({ POLICY_DIR: namesDir });
    expect(await post(proc, '/preflight', preflight(1, PROD))).toEqual({
      status: 403,
      message: expect.stringContaining(`[no-production] environment production (${PROD}) is blocked`),
    });
    expect((await post(proc, '/preflight', preflight(2, STAGING))).status).toBe(200);
    const unknown = '0d9c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a';
    expect(await post(proc, '/preflight', preflight(3, unknown))).toEqual({
      status: 403,
      message: expect.stringContaining(
        `cannot decide whether environment ${unknown} is blocked: environment ${unknown} is not one of the 2 environments the Steadybit Platform API lists`,
      ),
    });
    // A new environment created in Steadybit: the first run there refreshes the list.
    fake.environments.push(environment(unknown, 'production-eu'));
    await new Promise((r) => setTimeout(r, 10_500));
    expect((await post(proc, '/preflight', preflight(4, unknown))).status).toBe(200);
  }, 60_000);

  test('an API outage mid-load: never a 2xx that a fresh cache would have denied', async () => {
    fake.environments.push(environment(STAGING, 'staging'));
    const proc = await start({
      POLICY_DIR: namesDir,
      STEADYBIT_ENVIRONMENTS_REFRESH_SECONDS: '5',
      STEADYBIT_ENVIRONMENT_NAME_MAX_AGE_SECONDS: '10',
      STEADYBIT_SYNC_INTERVAL_SECONDS: '5',
      STEADYBIT_PREFLIGHT_WAIT_MS: '300',
    });
    const counts = { prodAllowed: 0, prodDenied: 0, stagingAllowed: 0, stagingDenied: 0, cannotDecide: 0 };
    const deadline = Date.now() + 16_000;
    let id = 100;
    setTimeout(() => {
      fake.down = true;
    }, 3000);
    while (Date.now() < deadline) {
      const answers = await Promise.all(
        [PROD, STAGING].map((env) => post(proc, '/preflight', preflight(id++, env)).then((a) => ({ env, ...a }))),
      );
      for (const a of answers) {
        if (a.env === PROD) counts[a.status === 200 ? 'prodAllowed' : 'prodDenied']++;
        else counts[a.status === 200 ? 'stagingAllowed' : 'stagingDenied']++;
        if (a.message.includes('cannot decide')) counts.cannotDecide++;
      }
    }
    // The name was known (fresh), then stale past its maximum age: production never ran.
    expect(counts.prodAllowed).toBe(0);
    expect(counts.prodDenied).toBeGreaterThan(10);
    // Staging ran while its name was known, and could not be decided once it was too old.
    expect(counts.stagingAllowed).toBeGreaterThan(0);
    expect(counts.cannotDecide).toBeGreaterThan(0);
    const ready = await readyz(proc);
    expect(ready.status).toBe(200);
    expect(ready.body.platform).toMatchObject({ environments: { lastError: expect.stringContaining('HTTP 503') } });
  }, 60_000);
});
