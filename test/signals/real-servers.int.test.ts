import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetrics, type Metrics } from '../../src/observability/metrics';
import { createSignalGatherer } from '../../src/signals/signal-gatherer';
import { signalFactSource } from '../../src/signals/signal-fact-source';
import { createSignalMetrics } from '../../src/signals/signal-metrics';
import type { SignalsConfig } from '../../src/signals/signal-source';
import { preflightWith } from '../helpers/fixtures';
import { startServerProcess, waitFor } from '../helpers/server-process';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';
import { startPrometheus, type PrometheusServer } from '../observability/prometheus-server';
import { startAlertmanager, type AlertmanagerServer } from './alertmanager-server';

jest.setTimeout(60000);

// The policies of docs/signals.md's worked examples, and one that lets a run through when its source is away.
const ALERTS_POLICY = `kind: Policy
name: no-attacks-during-critical-alerts
rules:
  - alerts:
      matchers: ['severity=~"critical|page"', 'namespace="{{environment}}"']
message: "{{reason}}. Fix or silence the alert first."
`;
const BURN_POLICY = `kind: Policy
name: error-budget-burn
rules:
  - prometheus:
      query: 'preflight_test_burn_rate{environment="{{environment}}"}'
      denyWhen: "> 14.4"
      reason: the error budget burns too fast
`;
const LENIENT_POLICY = `kind: Policy
name: lenient-alerts
rules:
  - alerts:
      matchers: 'severity="info", namespace="{{environment}}"'
      onUnavailable: allow
`;

// A run created as it asks: a silence made before it hides alerts from it (docs/guard.md).
const run = (environment: string) =>
  preflightWith((p) => {
    p.execution.environment = environment;
    p.execution.created = new Date().toISOString();
  });

describe('alerts and prometheus rules against a real Alertmanager and Prometheus', () => {
  let am: AlertmanagerServer;
  let prom: PrometheusServer;
  let target: Server;
  let burn = 1.5;
  let app: ReturnType<typeof testApp>;
  let serviceMetrics: Metrics;
  let sourcesConfig: SignalsConfig;
  const critical = { labels: { alertname: 'HighErrorRate', severity: 'critical', namespace: 'prod' } };

  beforeAll(async () => {
    target = createServer((_req, res) => {
      res.setHeader('content-type', 'text/plain; version=0.0.4');
      res.end(
        `# TYPE preflight_test_burn_rate gauge\npreflight_test_burn_rate{environment="prod"} ${burn}\npreflight_test_burn_rate{environment="staging"} 0\n`,
      );
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    [am, prom] = await Promise.all([
      startAlertmanager(),
      startPrometheus('signals-target', [`127.0.0.1:${(target.address() as AddressInfo).port}`]),
    ]);
    await waitFor(
      async () => JSON.stringify(await prom.query('preflight_test_burn_rate')).includes('"prod"'),
      'the first scrape',
      20000,
    );
    sourcesConfig = {
      sources: [
        { kind: 'alertmanager', name: 'default', url: am.url },
        { kind: 'prometheus', name: 'default', url: prom.url },
      ],
      cacheTtlMs: 0,
      timeoutMs: 2000,
    };
    const config = sourcesConfig;
    const bundle = bundleFrom({
      'alerts.yaml': ALERTS_POLICY,
      'burn.yaml': BURN_POLICY,
      'lenient.yaml': LENIENT_POLICY,
    });
    serviceMetrics = createMetrics({ defaultMetrics: false });
    const metrics = createSignalMetrics(serviceMetrics.registry, config);
    app = testApp(bundle, {
      metrics: serviceMetrics,
      factSources: [signalFactSource(createSignalGatherer({ config, metrics }))],
    });
  });
  afterAll(async () => {
    await Promise.all([am?.stop(), prom?.stop()]);
    await new Promise((resolve) => target?.close(resolve));
  });

  const preflight = (environment: string, explain = false) =>
    signedRequest(app.app, run(environment), explain ? { query: { explain: 'true' } } : {});

  it('denies while a matching alert fires, names it, and allows once it is resolved', async () => {
    expect((await preflight('prod')).status).toBe(200);
    await am.post([critical]);
    const denied = await preflight('prod');
    expect(denied.status).toBe(403);
    expect(denied.body.message).toMatch(
      /^Denied by 1 policy: \[no-attacks-during-critical-alerts\] 1 alert matching \{severity=~"critical\|page", namespace="prod"\} firing in alertmanager "default" \(read [^)]+\): HighErrorRate\{namespace="prod",severity="critical"\} since 20\S+Z\. Fix or silence the alert first\./,
    );
    // The alert is in prod: a staging run starts.
    expect((await preflight('staging')).status).toBe(200);
    await am.resolve([critical]);
    expect((await preflight('prod')).status).toBe(200);
  });

  it('does not count an alert silenced before the run was created', async () => {
    const paging = { labels: { alertname: 'DiskFilling', severity: 'page', namespace: 'prod', disk: 'sda' } };
    await am.post([paging]);
    expect((await preflight('prod')).status).toBe(403);
    await am.silence('disk', 'sda');
    await waitFor(async () => (await preflight('prod')).status === 200, 'the silence to apply', 10000);
    await am.resolve([paging]);
  });

  it('flips a PromQL rule as the scraped value crosses denyWhen, and explains what it read', async () => {
    burn = 16.2;
    await waitFor(async () => (await preflight('prod')).status === 403, 'the new value to be scraped', 15000);
    const denied = await preflight('prod', true);
    expect(denied.body.message).toMatch(
      /\[error-budget-burn\] the error budget burns too fast: query preflight_test_burn_rate\{environment="prod"\} on prometheus "default" returned \{__name__="preflight_test_burn_rate",environment="prod",instance="127.0.0.1:\d+",job="signals-target"\} 16.2 > 14.4 \(read /,
    );
    const finding = denied.body.explanation.results.find((r: { policy: string }) => r.policy === 'error-budget-burn')
      .findings[0];
    expect(finding.signal).toEqual({
      source: 'prometheus "default"',
      query: 'preflight_test_burn_rate{environment="prod"}',
      result: expect.stringContaining('16.2'),
      readAt: expect.any(String),
    });
    expect((await preflight('staging')).status).toBe(200);
    burn = 1.5;
    await waitFor(async () => (await preflight('prod')).status === 200, 'the value to drop again', 15000);
  });

  it('cannot decide once the servers are gone: denied, or allowed with a warning where the policy says onUnavailable: allow', async () => {
    await Promise.all([am.stop(), prom.stop()]);
    const denied = await preflight('prod');
    expect(denied.status).toBe(403);
    expect(denied.body.message).toMatch(
      /\[no-attacks-during-critical-alerts\] cannot decide: the alerts of alertmanager "default" could not be read \(.*ECONNREFUSED/,
    );
    expect(denied.body.message).toMatch(
      /\[error-budget-burn\] cannot decide: query preflight_test_burn_rate\{environment="prod"\} on prometheus "default" could not be read \(connect ECONNREFUSED/,
    );
    const explained = await preflight('prod', true);
    const lenient = explained.body.explanation.results.find((r: { policy: string }) => r.policy === 'lenient-alerts');
    expect(lenient.result).toBe('warn');
    expect(lenient.reasons[0]).toMatch(
      /could not be read .*; allowed anyway because the policy says onUnavailable: allow$/,
    );
    // Alone, the lenient policy lets the run start, and the answer Steadybit shows says why.
    const alone = testApp(bundleFrom({ 'lenient.yaml': LENIENT_POLICY }), {
      factSources: [signalFactSource(createSignalGatherer({ config: sourcesConfig }))],
    });
    const allowed = await signedRequest(alone.app, run('prod'));
    expect(allowed.status).toBe(200);
    expect(allowed.body.message).toMatch(
      /^Allowed with warnings: \[lenient-alerts\] would deny: the alerts of alertmanager "default" could not be read \(.*ECONNREFUSED.*\); allowed anyway because the policy says onUnavailable: allow/,
    );
    const text = await serviceMetrics.registry.metrics();
    expect(text).toMatch(
      /preflight_signal_queries_total\{kind="alertmanager",source="default",outcome="error"\} [1-9]/,
    );
    expect(text).toMatch(/preflight_signal_queries_total\{kind="prometheus",source="default",outcome="ok"\} [1-9]/);
  });
});

describe('the service configured by ALERTMANAGER_URL', () => {
  it('denies a run in an environment with a firing critical alert; a burst of preflights costs one query', async () => {
    const am = await startAlertmanager();
    const dir = mkdtempSync(join(tmpdir(), 'signals-policies-'));
    try {
      writeFileSync(join(dir, 'alerts.yaml'), ALERTS_POLICY);
      await am.post([{ labels: { alertname: 'NodeDown', severity: 'critical', namespace: 'prod' } }]);
      const server = await startServerProcess({
        POLICY_DIR: dir,
        ALERTMANAGER_URL: am.url,
        EMERGENCY_STOP_POLICY: 'off',
      });
      try {
        // A burst of preflights (SIGNAL_CACHE_TTL_MS at its default) costs Alertmanager one query.
        const burst = await Promise.all(
          Array.from({ length: 10 }, () =>
            fetch(`${server.url}/preflight`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(run('prod')),
            }),
          ),
        );
        expect(burst.map((res) => res.status)).toEqual(Array(10).fill(403));
        expect(((await burst[0].json()) as { message: string }).message).toContain(
          'NodeDown{namespace="prod",severity="critical"}',
        );
        const metrics = await (await fetch(`${server.url}/metrics`)).text();
        expect(metrics).toContain(
          'preflight_signal_queries_total{kind="alertmanager",source="default",outcome="ok"} 1',
        );
        expect(metrics).toContain('preflight_signal_cache_hits_total{kind="alertmanager",source="default"} 9');
        expect(metrics).toMatch(
          /preflight_signal_query_duration_seconds_count\{kind="alertmanager",source="default"\} 1\n/,
        );
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await am.stop();
    }
  });
});
