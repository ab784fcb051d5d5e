import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { parseSignalsConfig } from '../../src/signals/signals-config';
import { serviceCapabilities } from '../../src/service/service-capabilities';
import { serviceFactSources } from '../../src/service/service-fact-sources';
import { serviceSignalSource } from '../../src/signals/service-signal-source';
import { createLogger } from '../../src/common/logger';
import { factGatherer } from '../../src/policy/engine/fact-gatherer';
import type { FactSource } from '../../src/policy/core/fact-source';
import type { PreflightPayload } from '../../src/policy/core/decision';
import { bundleFrom } from '../helpers/bundle-from';
import { freePort, ROOT, waitFor } from '../helpers/server-process';
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

/** Far longer than the interval: the guard must not read its alerts through the preflights' cache. */
const CACHE_TTL_MS = '300000';

/**
 * A guard with the service's sources as build-service.ts gives them (serviceFactSources' `guard` part
 * and its nextTick), SIGNAL_CACHE_TTL_MS far longer than the interval; `url`: another Alertmanager.
 */
function guardWithAlertmanager(url = am.url) {
  const config = parseSignalsConfig({ ALERTMANAGER_URL: url, SIGNAL_CACHE_TTL_MS: CACHE_TTL_MS });
  const registry = new Registry();
  const logger = createLogger('error', { silent: true });
  const signals = serviceSignalSource(config, { registry, logger });
  const sources = serviceFactSources(serviceCapabilities({ signals }, logger));
  const clock = new TestClock(new Date());
  const g = guardUnderTest(bundle, clock, {
    fake,
    intervalMs: INTERVAL_MS,
    gather: factGatherer([...sources.guard, names]),
    nextTick: sources.nextTick,
  });
  // Real time here: Alertmanager's alerts carry real times.
  clock.now = () => new Date();
  /** Queries sent to Alertmanager, preflights' and guard's, with `outcome`. */
  const queries = (outcome = 'ok') => metricOf(registry, 'preflight_signal_queries_total', { outcome });
  const preflight = (payload: PreflightPayload) =>
    factGatherer([...sources.preflight, names])(bundle, payload, new Date());
  return { ...g, queries, preflight, cacheHits: () => metricOf(registry, 'preflight_signal_cache_hits_total') };
}

/** A signal metric of the default Alertmanager source (with `labels`). */
async function metricOf(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number> {
  const all = { kind: 'alertmanager', source: 'default', ...labels };
  const found = (await registry.getSingleMetric(name)?.get())?.values.find((v) =>
    Object.entries(all).every(([k, val]) => v.labels[k] === val),
  );
  return found?.value ?? 0;
}

test('a critical alert for production posted mid-run stops the run within one interval plus a margin, however long SIGNAL_CACHE_TTL_MS', async () => {
  const g = guardWithAlertmanager();
  runningOnFake(fake, 81);
  g.allow(run(81));
  // As at the door: the preflight read "no alerts" into its cache, which keeps it 300 s.
  expect((await g.preflight(run(81))).ok).toBe(true);
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

test('the first tick after an alert fires stops every run it concerns, with one Alertmanager query per tick for them all', async () => {
  const g = guardWithAlertmanager();
  for (const id of [84, 85, 86]) {
    runningOnFake(fake, id);
    g.allow(run(id));
  }
  try {
    await g.guard.tick();
    expect(g.stops).toEqual([]);
    expect(await g.queries()).toBe(1);
    await am.post([critical]);
    await g.guard.tick();
    expect(g.stops.map((s) => s.executionId).sort()).toEqual(['84', '85', '86']);
    expect(cancels(fake)).toHaveLength(3);
    expect(await g.queries()).toBe(2);
    // Each tick's other two runs had its one answer.
    expect(await g.cacheHits()).toBe(4);
    // Preflights keep their cache: a burst of them costs one query, then SIGNAL_CACHE_TTL_MS of hits.
    await Promise.all([g.preflight(run(87)), g.preflight(run(88))]);
    await g.preflight(run(89));
    expect(await g.queries()).toBe(3);
    expect(await g.cacheHits()).toBe(6);
  } finally {
    await am.resolve([critical]);
  }
});

test('Alertmanager away: a tick asks it once for all its runs, and the next tick asks again', async () => {
  const g = guardWithAlertmanager(`http://127.0.0.1:${await freePort()}`);
  for (const id of [91, 92, 93]) {
    runningOnFake(fake, id);
    g.allow(run(id));
  }
  await g.guard.tick();
  expect(await g.queries('error')).toBe(1);
  await g.guard.tick();
  expect(await g.queries('error')).toBe(2);
  // onCannotJudge: report (the example's default): said once per run, nothing cancelled.
  expect(cancels(fake)).toHaveLength(0);
  expect(await g.metric('preflight_guard_reports_total', { policy: 'critical-alerts', kind: 'cannot_judge' })).toBe(3);
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

/** The run as Steadybit sends it, created now: a silence made from here on began after it started. */
const createdNow = (id: number): PreflightPayload => {
  const p = run(id);
  p.execution.created = new Date().toISOString();
  return p;
};
/** Lets the clock pass the last moment read, so what is made next is later by Alertmanager's clock too. */
const afterThisMillisecond = async () => {
  const at = Date.now();
  await waitFor(async () => Date.now() > at + 1, 'the clock to move on', 1000);
};

test('a silence made mid-run does not hide a critical alert from the guard: the run is cancelled through the Platform API', async () => {
  const g = guardWithAlertmanager();
  runningOnFake(fake, 101);
  g.allow(createdNow(101));
  await afterThisMillisecond();
  const silence = await am.silence('alertname', 'CheckoutDown');
  try {
    await am.post([critical]);
    await g.guard.tick();
    expect(cancels(fake, 101)).toHaveLength(1);
    expect(g.stops[0]).toMatchObject({ executionId: '101', policy: 'critical-alerts' });
    expect(g.stops[0].reason).toContain(`silenced by ${silence}, made or changed after the run started`);
  } finally {
    await am.resolve([critical]);
    await am.expire(silence);
  }
});

test('a silence from before a run still hides the alert from it, in the same tick that stops a run it postdates, with one query for both', async () => {
  const g = guardWithAlertmanager();
  runningOnFake(fake, 102);
  runningOnFake(fake, 103);
  g.allow(createdNow(102));
  await afterThisMillisecond();
  const silence = await am.silence('alertname', 'CheckoutDown');
  await afterThisMillisecond();
  g.allow(createdNow(103));
  try {
    await am.post([critical]);
    await g.guard.tick();
    // 102 started before the silence: it hides nothing from it. 103 started after: it hides the alert.
    expect(g.stops.map((s) => s.executionId)).toEqual(['102']);
    expect(cancels(fake, 103)).toHaveLength(0);
    await g.guard.tick();
    expect(cancels(fake, 103)).toHaveLength(0);
    // One query per tick (the alerts, and the silences read with them), shared by both runs.
    expect(await g.queries()).toBe(2);
  } finally {
    await am.resolve([critical]);
    await am.expire(silence);
  }
});
