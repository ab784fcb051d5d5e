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

const SECRET = 'guard-stop-bound-secret';
const EXAMPLES = join(ROOT, 'examples', 'guard');
/** examples/guard/run.json's environment: Steadybit (the fake) calls it `production`. */
const ENV_ID = '8d0c1f7e-3b2a-4c5d-9e6f-7a8b9c0d1e2f';
const RUN = 4711;
const INTERVAL_S = 1;
const SIGNAL_TIMEOUT_MS = 1000;
/** docs/guard.md's bound: a stop is asked for within one interval plus SIGNAL_TIMEOUT_MS of an alert firing. */
const BOUND_MS = INTERVAL_S * 1000 + SIGNAL_TIMEOUT_MS;
/** Room for a loaded machine (and the cancel call): the old guard, reading through the cache, needed up to 300 s. */
const MARGIN_MS = 10_000;
const critical = { labels: { alertname: 'CheckoutDown', severity: 'critical', environment: 'production' } };

let am: AlertmanagerServer;
let fake: FakeSteadybit;
let dir: string;
let proc: ServerProcess | undefined;
beforeAll(async () => {
  am = await startAlertmanager();
  dir = mkdtempSync(join(tmpdir(), 'guard-stop-bound-'));
  copyFileSync(join(EXAMPLES, 'critical-alerts.yaml'), join(dir, 'critical-alerts.yaml'));
});
afterAll(async () => {
  await am.stop();
  rmSync(dir, { recursive: true, force: true });
});
// The service stops before the fake does: afterEach hooks run in the order they are declared.
afterEach(async () => {
  await proc?.stop();
  proc = undefined;
  await am.resolve([critical]);
});
fakeSteadybitEachTest((started) => {
  fake = started;
  fake.environments = [environment(ENV_ID, 'production')];
});

interface GuardHealth {
  lastTick?: { runs: number };
  stops: number;
}
const guardHealth = async (p: ServerProcess) =>
  ((await (await fetch(`${p.url}/readyz`)).json()) as { guard: GuardHealth }).guard;

test('an alert that fires mid-run stops it within GUARD_INTERVAL_SECONDS + SIGNAL_TIMEOUT_MS, though SIGNAL_CACHE_TTL_MS is 300 s', async () => {
  proc = await startServerProcess({
    POLICY_DIR: dir,
    POLICY_WATCH: 'false',
    WEBHOOK_SECRET: SECRET,
    AUDIT_LOG: 'off',
    ALERTMANAGER_URL: am.url,
    SIGNAL_CACHE_TTL_MS: '300000',
    SIGNAL_TIMEOUT_MS: String(SIGNAL_TIMEOUT_MS),
    STEADYBIT_URL: fake.url,
    STEADYBIT_TOKEN: 'test-token',
    GUARD_INTERVAL_SECONDS: String(INTERVAL_S),
  });
  const running = proc;
  const payload = JSON.parse(readFileSync(join(EXAMPLES, 'run.json'), 'utf8')) as PreflightPayload;
  runningOnFake(fake, RUN);
  // Allowed at the door, which reads "no alerts" into the preflights' cache for 300 s.
  expect((await signedPost(`${running.url}/preflight`, payload, SECRET)).status).toBe(200);
  // The guard has judged the run since: it goes on.
  await waitFor(async () => ((await guardHealth(running)).lastTick?.runs ?? 0) >= 1, 'a tick over the run');
  expect(cancels(fake)).toHaveLength(0);

  await am.post([critical]);
  const posted = Date.now();
  await waitFor(async () => cancels(fake, RUN).length > 0, 'the cancel of the run', BOUND_MS + MARGIN_MS);
  const tookMs = Date.now() - posted;
  expect(tookMs).toBeLessThan(BOUND_MS + MARGIN_MS);
  await waitFor(async () => (await guardHealth(running)).stops === 1, 'the stop on /readyz');
  expect(running.output()).toContain(`guard: stopped run ${RUN}`);
});
