import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { parseSignalsConfig } from '../../src/signals/signals-config';
import { serviceCapabilities } from '../../src/service/service-capabilities';
import { serviceFactSources } from '../../src/service/service-fact-sources';
import { serviceSignalSource } from '../../src/signals/service-signal-source';
import { createLogger } from '../../src/common/logger';
import { factGatherer } from '../../src/policy/engine/fact-gatherer';
import { decide } from '../../src/policy/engine/decide';
import type { PreflightPayload } from '../../src/policy/core/decision';
import { bundleFrom } from '../helpers/bundle-from';
import { ROOT, waitFor } from '../helpers/server-process';
import type { FakeSteadybit } from '../helpers/fake-steadybit';
import { fakeSteadybitEachTest } from '../helpers/fake-steadybit-each-test';
import { startPrometheus, type PrometheusServer } from '../observability/prometheus-server';
import { cancels, guardUnderTest, runningOnFake, TestClock } from './guard-harness';

jest.setTimeout(90_000);

/** The run of examples/dead-man: it attacks pods of the checkout and cart deployments in production. */
const run = (id: number): PreflightPayload => {
  const p = JSON.parse(readFileSync(join(ROOT, 'examples', 'dead-man', 'run.json'), 'utf8')) as PreflightPayload;
  p.execution.id = id;
  return p;
};
/** A guarded policy: each attacked deployment's scrape must be up, and its series must keep answering for 1m. */
const policy = (then: 'stop' | 'report') =>
  bundleFrom({
    'p.yaml': `kind: Policy
name: attacked-service-dead-man
whileRunning: true
rules:
  - prometheus:
      query: 'service_up{service="{{target.k8s.deployment}}"}'
      denyWhen: "< 1"
      deadMan: { after: 1m, then: ${then} }
`,
  });

/** An exporter whose services are scraped by Prometheus: a service taken out of `services` has no data. */
const services = new Set<string>();
let exporter: Server;
let exporterAt: string;
let fake: FakeSteadybit;

beforeAll(async () => {
  exporter = createServer((_req, res) => {
    res.setHeader('content-type', 'text/plain; version=0.0.4');
    res.end(['# TYPE service_up gauge', ...[...services].map((s) => `service_up{service="${s}"} 1`), ''].join('\n'));
  });
  await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
  exporterAt = `127.0.0.1:${(exporter.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => exporter?.close(resolve));
});
fakeSteadybitEachTest((started) => {
  fake = started;
});

/** What Prometheus answers for one service now: its samples' count. */
async function samplesOf(prom: PrometheusServer, service: string): Promise<number> {
  const answer = await prom.query(`service_up{service="${service}"}`);
  return answer.status === 'success' ? answer.data.result.length : -1;
}

/**
 * A guard with the service's sources as build-service.ts gives them, against `prom`, cancelling through
 * the Platform API fake, on a clock the test moves (the real Prometheus answers at its own time).
 */
function guardOn(prom: PrometheusServer, then: 'stop' | 'report') {
  const bundle = policy(then);
  // Preflights read without their cache: each one here must see Prometheus as it is at that moment.
  const config = parseSignalsConfig({ PROMETHEUS_URL: prom.url, SIGNAL_TIMEOUT_MS: '1000', SIGNAL_CACHE_TTL_MS: '0' });
  const logger = createLogger('error', { silent: true });
  const signals = serviceSignalSource(config, { registry: new Registry(), logger });
  const sources = serviceFactSources(serviceCapabilities({ signals }, logger));
  const clock = new TestClock(new Date());
  const g = guardUnderTest(bundle, clock, {
    fake,
    gather: factGatherer(sources.guard),
    nextTick: sources.nextTick,
  });
  /** A preflight at the door, as the route decides it: the facts its sources gather, then the decision. */
  const preflight = async (payload: PreflightPayload) => {
    const now = clock.now();
    const gathered = await factGatherer(sources.preflight)(bundle, payload, now);
    return decide(bundle, payload, gathered.ok ? gathered.facts : {}, now, { decisionId: 'door' });
  };
  const later = (seconds: number) => clock.set(new Date(clock.now().getTime() + seconds * 1000).toISOString());
  return { ...g, clock, preflight, later };
}

describe('a deadMan signal against a real Prometheus', () => {
  let prom: PrometheusServer;
  beforeAll(async () => {
    prom = await startPrometheus('services', [exporterAt]);
  });
  afterAll(async () => {
    await prom?.stop();
  });
  beforeEach(async () => {
    services.clear();
    services.add('checkout').add('cart');
    await waitFor(async () => (await samplesOf(prom, 'cart')) === 1, 'both services scraped', 20000);
  });

  test('no data for an attacked service stops the run once it has been silent for deadMan.after, and a new run is denied meanwhile', async () => {
    const g = guardOn(prom, 'stop');
    runningOnFake(fake, 91);
    g.allow(run(91));
    expect((await g.preflight(run(90))).allowed).toBe(true);
    await g.guard.tick();
    expect(await g.runs.silences('91')).toEqual([]);

    services.delete('cart');
    await waitFor(async () => (await samplesOf(prom, 'cart')) === 0, 'cart to have no data', 20000);
    await g.guard.tick();
    const since = g.clock.now().toISOString();
    expect(await g.runs.silences('91')).toEqual([
      { kind: 'prometheus', source: 'default', query: 'service_up{service="cart"}', since },
    ]);
    expect(cancels(fake, 91)).toHaveLength(0);
    const door = await g.preflight(run(92));
    expect(door.allowed).toBe(false);
    expect(door.message).toMatch(
      /\[attacked-service-dead-man\] dead man: query service_up\{service="cart"\} on prometheus "default" returned no samples; a run does not start/,
    );

    g.later(59);
    await g.guard.tick();
    expect(cancels(fake, 91)).toHaveLength(0);
    g.later(1);
    await g.guard.tick();
    expect(cancels(fake, 91)).toHaveLength(1);
    expect(g.stops).toEqual([
      expect.objectContaining({
        executionId: '91',
        policy: 'attacked-service-dead-man',
        // The target value is masked in a stop, as every target value the payload holds (src/redaction).
        reason: `dead man: query service_up{service="[redacted]"} on prometheus "default" has been silent since ${since} (1m, deadMan.after 1m): returned no samples`,
      }),
    ]);
    const audit = g.audit.find((a) => a.decision === 'stopped');
    expect(audit).toMatchObject({ stoppedBy: 'attacked-service-dead-man', executionId: 91 });
    expect(audit?.message).toContain(
      `service_up{service="[redacted]"} on prometheus "default" has been silent since ${since}`,
    );
    // The stop forgot the run, and its silences with it.
    expect(await g.runs.silences('91')).toEqual([]);
  });

  test('then: report reports the silent signal and lets the run go on', async () => {
    const g = guardOn(prom, 'report');
    runningOnFake(fake, 93);
    g.allow(run(93));
    services.delete('checkout');
    await waitFor(async () => (await samplesOf(prom, 'checkout')) === 0, 'checkout to have no data', 20000);
    await g.guard.tick();
    g.later(61);
    await g.guard.tick();
    await g.guard.tick();
    expect(cancels(fake, 93)).toHaveLength(0);
    expect(g.stops).toEqual([]);
    expect(
      await g.metric('preflight_guard_reports_total', { policy: 'attacked-service-dead-man', kind: 'dead_man' }),
    ).toBe(1);
    expect(g.entries.map((l) => l.message).filter((l) => l.includes('deadMan then: report'))).toEqual([
      expect.stringMatching(/run 93 silent too long; it goes on .*service_up\{service=.*\} .* has been silent since/),
    ]);
    // A new run is still denied while it is silent.
    expect((await g.preflight(run(94))).allowed).toBe(false);
  });
});

test('a Prometheus that goes down stops a guarded run once it has been away for deadMan.after', async () => {
  const prom = await startPrometheus('services', [exporterAt]);
  let stopped = false;
  try {
    services.clear();
    services.add('checkout').add('cart');
    await waitFor(async () => (await samplesOf(prom, 'cart')) === 1, 'both services scraped', 20000);
    const g = guardOn(prom, 'stop');
    runningOnFake(fake, 95);
    g.allow(run(95));
    await g.guard.tick();
    expect(await g.runs.silences('95')).toEqual([]);

    await prom.stop();
    stopped = true;
    await g.guard.tick();
    const since = g.clock.now().toISOString();
    expect((await g.runs.silences('95')).map((s) => [s.query, s.since])).toEqual([
      ['service_up{service="checkout"}', since],
      ['service_up{service="cart"}', since],
    ]);
    expect(cancels(fake, 95)).toHaveLength(0);
    const door = await g.preflight(run(96));
    expect(door.allowed).toBe(false);
    expect(door.message).toMatch(
      /dead man: query service_up\{service="checkout"\} on prometheus "default" could not be read/,
    );

    g.later(60);
    await g.guard.tick();
    expect(cancels(fake, 95)).toHaveLength(1);
    expect(g.stops[0].reason).toMatch(
      new RegExp(
        `^dead man: query service_up\\{service="\\[redacted\\]"\\} on prometheus "default" has been silent since ${since.replace(/\./g, '\\.')} \\(1m, deadMan\\.after 1m\\): could not be read \\(`,
      ),
    );
  } finally {
    if (!stopped) await prom.stop();
  }
});
