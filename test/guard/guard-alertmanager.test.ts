import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { parseSignalsConfig } from '../../src/signals/signals-config';
import { serviceSignalSource } from '../../src/signals/service-signal-source';
import { createLogger } from '../../src/observability/logger';
import { factGatherer } from '../../src/policy/engine/gather-facts';
import type { FactSource } from '../../src/policy/core/fact-source';
import type { PreflightPayload } from '../../src/policy/core/decision';
import { bundleFrom } from '../helpers/bundle-from';
import { ROOT, waitFor } from '../helpers/server-process';
import type { FakeSteadybit } from '../helpers/fake-steadybit';
import { fakeSteadybitEachTest } from '../helpers/fake-steadybit-each-test';
import { startAlertmanager, type AlertmanagerServer } from '../signals/alertmanager-server';
import { cancels, guardUnderTest, runningOnFake, TestClock } from './guard-harness';

jest.setTimeout(60_000);

const EXAMPLES = join(ROOT, 'examples', 'guard');
const ENV_ID = '8d0c1f7e-3b2a-4c5d-9e6f-7a8b9c0d1e2f';
/** examples/guard/critical-alerts.yaml, alone, as shipped. */
const bundle = bundleFrom({ 'critical-alerts.yaml': readFileSync(join(EXAMPLES, 'critical-alerts.yaml'), 'utf8') });
const run = (id: number): PreflightPayload => {
  const p = JSON.parse(readFileSync(join(EXAMPLES, 'run.json'), 'utf8')) as PreflightPayload;
  p.execution.id = id;
  return p;
};
/** The Platform API's answer for the run's environment id: Steadybit calls it `production`. */
const names: FactSource = {
  name: 'platform api',
  kinds: ['environment-names'],
  gather: async () => ({ ok: true, facts: { environments: { [ENV_ID]: { name: 'production' } } } }),
};
const INTERVAL_MS = 500;
const critical = { labels: { alertname: 'CheckoutDown', severity: 'critical', environment: 'production' } };

let am: AlertmanagerServer;
let fake: FakeSteadybit;
beforeAll(async () => {
  am = await startAlertmanager();
});
afterAll(async () => {
  await am.stop();
});
fakeSteadybitEachTest((started) => {
  fake = started;
});

function guardWithAlertmanager() {
  const config = parseSignalsConfig({ ALERTMANAGER_URL: am.url, SIGNAL_CACHE_TTL_MS: '0' });
  const signals = serviceSignalSource(config, {
    registry: new Registry(),
    logger: createLogger('error', { silent: true }),
  });
  const clock = new TestClock(new Date());
  const g = guardUnderTest(bundle, clock, {
    fake,
    intervalMs: INTERVAL_MS,
    gather: factGatherer([signals, names]),
  });
  // Real time here: Alertmanager's alerts carry real times.
  clock.now = () => new Date();
  return g;
}

test('a critical alert for production posted mid-run stops the run within one interval plus a margin', async () => {
  const g = guardWithAlertmanager();
  runningOnFake(fake, 81);
  g.allow(run(81));
  g.guard.start();
  try {
    await g.guard.tick();
    expect(cancels(fake)).toHaveLength(0);
    const posted = Date.now();
    await am.post([critical]);
    await waitFor(async () => g.stops.length > 0, 'the run to be stopped', INTERVAL_MS + 3000);
    expect(cancels(fake, 81)).toHaveLength(1);
    expect(Date.now() - posted).toBeLessThan(INTERVAL_MS + 3000);
    expect(g.stops[0]).toMatchObject({ executionId: '81', policy: 'critical-alerts' });
    expect(g.stops[0].reason).toContain('CheckoutDown');
  } finally {
    await g.guard.stop();
    await am.resolve([critical]);
  }
});

test('a resolved alert does not stop a run', async () => {
  await am.post([critical]);
  await am.resolve([critical]);
  const g = guardWithAlertmanager();
  runningOnFake(fake, 82);
  g.allow(run(82));
  await g.guard.tick();
  await g.guard.tick();
  expect(cancels(fake)).toHaveLength(0);
  expect(g.stops).toEqual([]);
});

test('an alert of another environment does not stop it', async () => {
  const other = { labels: { alertname: 'CheckoutDown', severity: 'critical', environment: 'staging' } };
  await am.post([other]);
  const g = guardWithAlertmanager();
  runningOnFake(fake, 83);
  g.allow(run(83));
  await g.guard.tick();
  expect(cancels(fake)).toHaveLength(0);
  await am.resolve([other]);
});
