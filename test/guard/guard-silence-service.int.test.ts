import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PreflightPayload } from '../../src/policy/core/decision';
import { signedPost } from '../helpers/signed-post';
import { environment, type FakeSteadybit } from '../helpers/fake-steadybit';
import { fakeSteadybitEachTest } from '../helpers/fake-steadybit-each-test';
import { ROOT, startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process';
import { startAlertmanager, type AlertmanagerServer } from '../signals/alertmanager-server';
import { cancels, runningOnFake } from './guard-harness';

jest.setTimeout(60_000);

const SECRET = 'guard-silence-service-secret';
const EXAMPLES = join(ROOT, 'examples', 'guard');
/** examples/guard/run.json's environment: Steadybit (the fake) calls it `production`. */
const ENV_ID = '8d0c1f7e-3b2a-4c5d-9e6f-7a8b9c0d1e2f';
const RUN = 4712;
const known = { labels: { alertname: 'KnownIssue', severity: 'critical', environment: 'production' } };
const critical = { labels: { alertname: 'CheckoutDown', severity: 'critical', environment: 'production' } };

let am: AlertmanagerServer;
let fake: FakeSteadybit;
let dir: string;
let proc: ServerProcess | undefined;
beforeAll(async () => {
  am = await startAlertmanager();
  dir = mkdtempSync(join(tmpdir(), 'guard-silence-service-'));
  copyFileSync(join(EXAMPLES, 'critical-alerts.yaml'), join(dir, 'critical-alerts.yaml'));
});
afterAll(async () => {
  await am.stop();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await proc?.stop();
  proc = undefined;
});
fakeSteadybitEachTest((started) => {
  fake = started;
  fake.environments = [environment(ENV_ID, 'production')];
});

const guardHealth = async (p: ServerProcess) =>
  ((await (await fetch(`${p.url}/readyz`)).json()) as { guard: { lastTick?: { runs: number }; stops: number } }).guard;
/** Lets the clock pass the last moment read, so what is made next is later by Alertmanager's clock too. */
const afterThisMillisecond = async () => {
  const at = Date.now();
  await waitFor(async () => Date.now() > at + 1, 'the clock to move on', 1000);
};

test('the built service: a silence from before the run hides its alert, one made mid-run does not, and the run is cancelled', async () => {
  // A known critical alert, silenced before the run was created.
  await am.silence('alertname', 'KnownIssue');
  await am.post([known]);
  await afterThisMillisecond();
  proc = await startServerProcess({
    POLICY_DIR: dir,
    POLICY_WATCH: 'false',
    WEBHOOK_SECRET: SECRET,
    AUDIT_LOG: 'off',
    ALERTMANAGER_URL: am.url,
    STEADYBIT_URL: fake.url,
    STEADYBIT_TOKEN: 'test-token',
    GUARD_INTERVAL_SECONDS: '1',
  });
  const running = proc;
  const payload = JSON.parse(readFileSync(join(EXAMPLES, 'run.json'), 'utf8')) as PreflightPayload;
  payload.execution.id = RUN;
  payload.execution.created = new Date().toISOString();
  runningOnFake(fake, RUN);
  try {
    // The silence from before hides the known alert at the door and at the guard's ticks.
    expect((await signedPost(`${running.url}/preflight`, payload, SECRET)).status).toBe(200);
    await waitFor(async () => ((await guardHealth(running)).lastTick?.runs ?? 0) >= 1, 'a tick over the run');
    await afterThisMillisecond();
    expect(cancels(fake)).toHaveLength(0);

    // Mid-run, a step (or anyone) silences the alert it is about to cause: the guard still sees it.
    const silence = await am.silence('alertname', 'CheckoutDown');
    await am.post([critical]);
    await waitFor(async () => cancels(fake, RUN).length > 0, 'the cancel of the run', 15_000);
    await waitFor(async () => (await guardHealth(running)).stops === 1, 'the stop on /readyz');
    expect(running.output()).toContain(`guard: stopped run ${RUN}`);
    expect(running.output()).toContain(`silenced by ${silence}, made or changed after the run started`);
    expect(running.output()).not.toContain('KnownIssue');
  } finally {
    await am.resolve([known, critical]);
  }
});
