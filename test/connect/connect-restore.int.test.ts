import { spawn } from 'node:child_process';
import { fingerprint } from '../../src/connect/webhook-plan';
import { runAsync, type Run } from '../helpers/run-async';
import type { FakeSteadybit } from '../helpers/fake-steadybit';
import { fakeSteadybitEachTest } from '../helpers/fake-steadybit-each-test';
import { ROOT, startServerProcess, type ServerProcess } from '../helpers/server-process';
import { CLI, tempDirs } from '../cli/run-cli';

// `preflight-gate connect` as operators run it (the built CLI, a child process) against the fake
// Platform API and a real gate: a secret the gate does not hold must never be left in Steadybit.

const GATE_SECRET = 'the-secret-the-gate-holds';
const WRONG_SECRET = 'a-secret-the-gate-does-not-hold';
const POLICIES = {
  'prod.yaml': [
    'kind: Policy',
    'name: prod-limits',
    'rules:',
    '  - targetAttributes: {forbid: {k8s.namespace: [kube-system]}, whenMissing: allow}',
    '',
  ].join('\n'),
};

const dirs = tempDirs();
let fake: FakeSteadybit;
fakeSteadybitEachTest((started) => {
  fake = started;
});
let gate: ServerProcess;
beforeAll(async () => {
  gate = await startServerProcess({ WEBHOOK_SECRET: GATE_SECRET, POLICY_DIR: dirs(POLICIES), AUDIT_LOG: 'off' });
});
afterAll(() => gate.stop());

/** The webhooks as they work today: this gate, its secret, an extra header someone added. */
function workingWebhooks(): void {
  fake.preflightWebhooks = [
    {
      id: 'ac456d58-8fb2-4df4-86d8-ca81d7562739',
      version: 3,
      scope: 'GLOBAL',
      name: 'preflight-gate',
      url: `${gate.url}/preflight`,
      secret: GATE_SECRET,
      events: ['experiment.execution.preflight'],
      targetAttributeIncludes: ['k8s.namespace'],
      headers: { 'X-Env': 'prod' },
    },
  ];
}

function connect(args: string[], secret: string): Promise<Run> {
  return runAsync(process.execPath, [CLI, 'connect', dirs(POLICIES), '--gate-url', gate.url, ...args], {
    env: { PATH: process.env.PATH, STEADYBIT_URL: fake.url, STEADYBIT_TOKEN: 'test-token', WEBHOOK_SECRET: secret },
    killAfterMs: 60_000,
  });
}
const writes = () => fake.requests.filter((r) => r.method !== 'GET' && r.path.startsWith('/api/integrations/'));

test('a secret the gate does not hold stops connect before it writes: exit 1, the webhooks untouched', async () => {
  workingWebhooks();
  const before = structuredClone(fake.preflightWebhooks);
  const run = await connect([], WRONG_SECRET);
  expect(run.stdout).toContain(
    `check FAILED: ${gate.url}/preflight refused the signature made with the secret given to connect (HTTP 401: X-SB-Signature does not match the request body for any configured secret)`,
  );
  expect(run.stdout).toContain('nothing was changed in Steadybit');
  expect(run.status).toBe(1);
  expect(writes()).toEqual([]);
  expect(fake.preflightWebhooks).toEqual(before);
  expect(fake.customWebhooks).toEqual([]);
});

test('a gate that verifies no signature (WEBHOOK_SECRET unset) fails the check: any secret would pass', async () => {
  const unsigned = await startServerProcess({ POLICY_DIR: dirs(POLICIES), AUDIT_LOG: 'off' });
  try {
    workingWebhooks();
    const before = structuredClone(fake.preflightWebhooks);
    const run = await runAsync(process.execPath, [CLI, 'connect', dirs(POLICIES), '--gate-url', unsigned.url], {
      env: {
        PATH: process.env.PATH,
        STEADYBIT_URL: fake.url,
        STEADYBIT_TOKEN: 'test-token',
        WEBHOOK_SECRET: GATE_SECRET,
      },
      killAfterMs: 60_000,
    });
    expect(run.stdout).toContain(
      `check FAILED: ${unsigned.url}/preflight decided a sample run signed with another secret too (HTTP 403): the gate verifies no signature (is WEBHOOK_SECRET set on it?)`,
    );
    expect(run.stdout).toContain('nothing was changed in Steadybit');
    expect(run.status).toBe(1);
    expect(writes()).toEqual([]);
    expect(fake.preflightWebhooks).toEqual(before);
  } finally {
    await unsigned.stop();
  }
});

test('the right secret passes the check on both paths before the webhooks are written', async () => {
  const run = await connect([], GATE_SECRET);
  expect(run.stdout).toContain(
    `check: ${gate.url}/preflight verified the signature and decided a sample run (HTTP 403); one signed with another secret was refused (HTTP 401)`,
  );
  expect(run.stdout).toContain(`check: ${gate.url}/events verified the signature of a sample event (HTTP 200)`);
  expect(run.status).toBe(0);
  expect(fake.preflightWebhooks).toEqual([expect.objectContaining({ secret: GATE_SECRET })]);
  expect(fake.customWebhooks).toEqual([expect.objectContaining({ secret: GATE_SECRET })]);
});

test('a failed probe after the write puts every webhook back as it was, says so and exits 1; runs pass the gate again', async () => {
  workingWebhooks();
  const before = structuredClone(fake.preflightWebhooks);
  const run = await connect(['--no-check', '--probe', '--probe-team', 'SRE'], WRONG_SECRET);
  expect(run.stdout).toMatch(
    /probe FAILED: run \d+ ended FAILED without this gate's answer: .*X-SB-Signature does not match/,
  );
  expect(run.stdout).toMatch(
    /restored: custom webhook "preflight-gate events" deleted \(id [0-9a-f-]{36}\): there was none before/,
  );
  expect(run.stdout).toContain(
    `restored: preflight webhook "preflight-gate" put back as it was (id ac456d58-8fb2-4df4-86d8-ca81d7562739, url ${gate.url}/preflight, secret ${fingerprint(GATE_SECRET)}; now version 5)`,
  );
  expect(run.stdout).toContain('connect failed: the webhooks are back as they were before it ran');
  expect(run.stdout).not.toContain('NOT restored');
  expect(run.status).toBe(1);
  // Everything as before but the version, which Steadybit counts up at every write.
  expect(fake.preflightWebhooks).toEqual([{ ...before[0], version: 5 }]);
  expect(fake.customWebhooks).toEqual([]);
  expect(fake.experiments).toEqual([]);
  // The restored webhook works: a probe through it is decided by the gate.
  const again = await connect(['--no-events', '--probe', '--probe-team', 'SRE'], GATE_SECRET);
  expect(again.stdout).toContain('preflight webhook "preflight-gate" is up to date');
  expect(again.stdout).toMatch(/probe passed: the gate decided run \d+/);
  expect(again.status).toBe(0);
});

test('Ctrl-C while the probe waits: its run cancelled, its experiment deleted, every webhook put back, exit 130', async () => {
  workingWebhooks();
  const before = structuredClone(fake.preflightWebhooks);
  fake.holdRuns = true; // the probe's run never ends by itself: connect waits for it until stopped
  const child = spawn(
    process.execPath,
    [CLI, 'connect', dirs(POLICIES), '--gate-url', gate.url, '--no-check', '--probe', '--probe-team', 'SRE'],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        STEADYBIT_URL: fake.url,
        STEADYBIT_TOKEN: 'test-token',
        WEBHOOK_SECRET: WRONG_SECRET,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let interrupted = false; // once: a second Ctrl-C exits at once, without putting back
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    if (!interrupted && /probe: started run \d+/.test(stdout)) interrupted = child.kill('SIGINT');
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(killer);
  expect(stdout).toMatch(/probe: canceled run \d+/);
  expect(stdout).toMatch(/probe: deleted experiment \S+/);
  expect(stdout).toContain('probe stopped: stopped before the run ended (interrupted by SIGINT)');
  expect(stdout).toContain('connect interrupted by SIGINT: putting back what it wrote');
  expect(stdout).toMatch(/restored: custom webhook "preflight-gate events" deleted/);
  expect(stdout).toMatch(/restored: preflight webhook "preflight-gate" put back as it was/);
  expect(stdout).not.toContain('NOT restored');
  expect(status).toBe(130);
  expect(fake.preflightWebhooks).toEqual([{ ...before[0], version: 5 }]);
  expect(fake.customWebhooks).toEqual([]);
  expect(fake.experiments).toEqual([]);
  expect([...fake.runs.values()].map((r) => r.state)).toEqual(['CANCELED']);
});

test('a write the platform refuses after another succeeded: the first is taken back, exit 2 naming both', async () => {
  fake.faults.push({
    path: '/api/integrations/webhook',
    method: 'POST',
    status: 422,
    body: { message: 'Invalid URL' },
  });
  const run = await connect([], GATE_SECRET);
  expect(run.stdout).toMatch(/preflight webhook "preflight-gate" created \(id [0-9a-f-]{36}\)/);
  expect(run.stderr).toContain(
    `preflight-gate: cannot create the custom webhook "preflight-gate events" at ${fake.url}: HTTP 422: {"message":"Invalid URL"}`,
  );
  expect(run.stderr).toMatch(
    /restored: preflight webhook "preflight-gate" deleted \(id [0-9a-f-]{36}\): there was none before/,
  );
  expect(run.stderr).toContain('connect failed: the webhooks are back as they were before it ran');
  expect(run.status).toBe(2);
  expect(fake.preflightWebhooks).toEqual([]);
  expect(fake.customWebhooks).toEqual([]);
});
