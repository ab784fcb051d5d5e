import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { checkAlerts } from '../../src/signals/alerts-check';
import { createSignalGatherer } from '../../src/signals/gather-signals';
import { checkPrometheus } from '../../src/signals/prometheus-check';
import { createSignalMetrics } from '../../src/signals/signal-metrics';
import { resolveSignalNeeds } from '../../src/signals/signal-need';
import { compileAlertsSpec, compilePrometheusSpec, type AlertsSpec, type PrometheusSpec } from '../../src/signals/signal-rule-specs';
import type { SignalsConfig } from '../../src/signals/signal-source';
import type { RunValues } from '../../src/signals/placeholder-text';
import { waitFor } from '../helpers/server-process';
import { startPrometheus, type PrometheusServer } from '../observability/prometheus-server';
import { startAlertmanager, type AlertmanagerServer } from './alertmanager-server';

jest.setTimeout(60000);

const prod: RunValues[] = [{ environment: 'prod', team: 'SRE' }];
const staging: RunValues[] = [{ environment: 'staging', team: 'SRE' }];

function alertsRule(spec: AlertsSpec) {
  const compiled = compileAlertsSpec(spec);
  if ('message' in compiled) throw new Error(compiled.message);
  return compiled;
}
function promRule(spec: PrometheusSpec) {
  const compiled = compilePrometheusSpec(spec);
  if ('message' in compiled) throw new Error(compiled.message);
  return compiled;
}

describe('signal rules against a real Alertmanager', () => {
  let am: AlertmanagerServer;
  const registry = new Registry();
  let gather: ReturnType<typeof createSignalGatherer>;
  const critical = { labels: { alertname: 'HighErrorRate', severity: 'critical', namespace: 'prod' }, annotations: { summary: 'errors' } };
  const rule = alertsRule({ matchers: ['severity=~"critical|page"', 'namespace="{{environment}}"'] });
  const decideFor = async (runs: RunValues[]) => checkAlerts(rule.check, await gather(resolveSignalNeeds(rule.needs, runs)), runs, new Date());

  beforeAll(async () => {
    am = await startAlertmanager();
    const config: SignalsConfig = { sources: [{ kind: 'alertmanager', name: 'default', url: am.url }], cacheTtlMs: 0, timeoutMs: 2000 };
    gather = createSignalGatherer({ config, metrics: createSignalMetrics(registry, config) });
  });
  afterAll(async () => { await am?.stop(); });

  it('denies while a matching alert fires, names it, and allows once it is resolved', async () => {
    expect(await decideFor(prod)).toEqual([]);
    await am.post([critical]);
    const denied = await decideFor(prod);
    expect(denied).toHaveLength(1);
    expect(denied[0].undecidable).toBeUndefined();
    expect(denied[0].reason).toMatch(/^1 alert matching \{severity=~"critical\|page", namespace="prod"\} firing in alertmanager "default" \(read .*\): HighErrorRate\{namespace="prod",severity="critical"\} since 20/);
    expect(denied[0].value).toBe('HighErrorRate');
    // The same alerts, another environment: nothing matches.
    expect(await decideFor(staging)).toEqual([]);
    await am.resolve([critical]);
    expect(await decideFor(prod)).toEqual([]);
  });

  it('does not count a silenced alert unless the rule includes silenced ones', async () => {
    const warning = { labels: { alertname: 'DiskFilling', severity: 'page', namespace: 'prod', disk: 'sda' } };
    await am.post([warning]);
    expect(await decideFor(prod)).toHaveLength(1);
    await am.silence('disk', 'sda');
    await waitFor(async () => (await decideFor(prod)).length === 0, 'the silence to apply', 10000);
    const withSilenced = alertsRule({ matchers: 'namespace="prod"', includeSilenced: true });
    const facts = await gather(resolveSignalNeeds(withSilenced.needs, prod));
    expect(checkAlerts(withSilenced.check, facts, prod, new Date())).toHaveLength(1);
    await am.resolve([warning]);
  });

  it('cannot decide once Alertmanager is gone; onUnavailable: allow lets the run through and says so', async () => {
    const lenient = alertsRule({ matchers: 'severity="critical"', onUnavailable: 'allow' });
    await am.stop();
    const down = await decideFor(prod);
    expect(down).toEqual([expect.objectContaining({ undecidable: true, reason: expect.stringMatching(/^cannot decide: the alerts of alertmanager "default" could not be read \(.*ECONNREFUSED/) })]);
    const facts = await gather(resolveSignalNeeds(lenient.needs, prod));
    expect(checkAlerts(lenient.check, facts, prod, new Date())).toEqual([expect.objectContaining({ advisory: true, reason: expect.stringContaining('allowed anyway because the policy says onUnavailable: allow') })]);
    const metrics = await registry.getMetricsAsJSON();
    const queries = metrics.find((m) => m.name === 'preflight_signal_queries_total');
    const count = (outcome: string) => queries?.values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
    expect(count('ok')).toBeGreaterThan(3);
    expect(count('error')).toBeGreaterThanOrEqual(2);
  });
});

describe('signal rules against a real Prometheus', () => {
  let prom: PrometheusServer;
  let target: Server;
  let ratio = 0.01;
  let gather: ReturnType<typeof createSignalGatherer>;
  const rule = promRule({ query: 'preflight_test_error_ratio{environment="{{environment}}"}', denyWhen: '> 0.02', reason: 'the error budget burns too fast' });
  const decideFor = async (runs: RunValues[]) => checkPrometheus(rule.check, await gather(resolveSignalNeeds(rule.needs, runs)), runs);

  beforeAll(async () => {
    target = createServer((_req, res) => {
      res.setHeader('content-type', 'text/plain; version=0.0.4');
      res.end(`# TYPE preflight_test_error_ratio gauge\npreflight_test_error_ratio{environment="prod"} ${ratio}\npreflight_test_error_ratio{environment="staging"} 0\n`);
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    prom = await startPrometheus('signals-target', [`127.0.0.1:${(target.address() as AddressInfo).port}`]);
    gather = createSignalGatherer({ config: { sources: [{ kind: 'prometheus', name: 'default', url: prom.url }], cacheTtlMs: 0, timeoutMs: 2000 } });
    await waitFor(async () => (await prom.query('preflight_test_error_ratio')).status === 'success' && JSON.stringify(await prom.query('preflight_test_error_ratio')).includes('prod'), 'the first scrape', 20000);
  });
  afterAll(async () => {
    await prom?.stop();
    await new Promise((resolve) => target?.close(resolve));
  });

  it('flips as the scraped value crosses denyWhen', async () => {
    expect(await decideFor(prod)).toEqual([]);
    ratio = 0.05;
    await waitFor(async () => (await decideFor(prod)).length === 1, 'the new value to be scraped', 15000);
    const [denied] = await decideFor(prod);
    expect(denied.reason).toMatch(/^the error budget burns too fast: query preflight_test_error_ratio\{environment="prod"\} on prometheus "default" returned \{__name__="preflight_test_error_ratio",environment="prod",instance="127.0.0.1:\d+",job="signals-target"\} 0.05 > 0.02 \(read /);
    expect(denied.read).toEqual(expect.objectContaining({ query: 'preflight_test_error_ratio{environment="prod"}', readAt: expect.any(String) }));
    expect(await decideFor(staging)).toEqual([]);
    ratio = 0.01;
    await waitFor(async () => (await decideFor(prod)).length === 0, 'the value to drop again', 15000);
  });

  it('a query Prometheus refuses cannot decide, even with onUnavailable: allow', async () => {
    const bad = promRule({ query: 'rate(preflight_test_error_ratio{environment="{{environment}}"})', onUnavailable: 'allow' });
    const facts = await gather(resolveSignalNeeds(bad.needs, prod));
    expect(checkPrometheus(bad.check, facts, prod)).toEqual([expect.objectContaining({ undecidable: true, reason: expect.stringMatching(/^cannot decide: Prometheus refused query rate\(.*bad_data/) })]);
  });

  it('cannot decide once Prometheus is gone', async () => {
    await prom.stop();
    expect(await decideFor(prod)).toEqual([expect.objectContaining({ undecidable: true, reason: expect.stringMatching(/^cannot decide: query .* on prometheus "default" could not be read \(.*ECONNREFUSED/) })]);
  });
});
