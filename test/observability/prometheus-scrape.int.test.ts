import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signedPost } from '../helpers/signed-post';
import { preflightWith } from '../helpers/fixtures';
import { ROOT, startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process';
import { startPrometheus, type PrometheusServer } from './prometheus-server';

/**
 * The real thing: the built service (`node dist/main.js`, built by `npm test`'s pretest) is scraped
 * by a real Prometheus, and PromQL sees the decisions this test made.
 */
const SECRET = 'prometheus-test-secret';
const JOB = 'preflight-gate';
const POLICY = 'kind: Policy\nname: no-payments\nrules:\n  - environments:\n      blocked: [payments]\n';

let dir: string;
let service: ServerProcess;
let prometheus: PrometheusServer;

async function post(environment: string, secret = SECRET): Promise<number> {
  const body = preflightWith((p) => {
    p.execution.environment = environment;
  });
  const res = await signedPost(`${service.url}/preflight`, body, secret);
  return res.status;
}

/** The value of each series of an instant query, keyed by one label. */
async function valuesBy(promql: string, label: string): Promise<Record<string, number>> {
  const result = await prometheus.query(promql);
  if (result.status !== 'success') throw new Error(`${promql}: ${result.error}`);
  return Object.fromEntries(result.data.result.map((s) => [s.metric[label] ?? '', Number(s.value[1])]));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'prom-policies-'));
  writeFileSync(join(dir, 'no-payments.yaml'), POLICY);
  service = await startServerProcess({
    POLICY_DIR: dir,
    WEBHOOK_SECRET: SECRET,
    POLICY_WATCH: 'false',
    EMERGENCY_STOP_POLICY: 'off',
  });
  prometheus = await startPrometheus(JOB, [`127.0.0.1:${service.port}`]);
}, 40000);

afterAll(async () => {
  await prometheus?.stop();
  await service?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a real Prometheus scraping a running preflight-gate', () => {
  it('sees the allow, deny and error decisions the test made, by decision and by policy', async () => {
    const statuses = [
      await post('dev'),
      await post('staging'),
      await post('dev'),
      await post('payments'),
      await post('payments'),
      await post('dev', 'wrong-secret'),
    ];
    expect(statuses).toEqual([200, 200, 200, 403, 403, 401]);

    const expected = { allow: 3, deny: 2, error: 1 };
    let seen: Record<string, number> = {};
    await waitFor(
      async () => {
        seen = await valuesBy(`sum by (decision) (preflight_decisions_total{job="${JOB}"})`, 'decision');
        return JSON.stringify(seen) === JSON.stringify(expected);
      },
      'Prometheus to scrape the decisions',
      30000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; last seen ${JSON.stringify(seen)}; prometheus said:\n${prometheus.output()}`);
    });
    expect(seen).toEqual(expected);

    expect(
      await valuesBy(`sum by (result) (preflight_policy_results_total{job="${JOB}", policy="no-payments"})`, 'result'),
    ).toEqual({ pass: 3, deny: 2 });
    expect(await valuesBy(`sum by (reason) (preflight_signature_failures_total{job="${JOB}"})`, 'reason')).toEqual({
      missing: 0,
      malformed: 0,
      mismatch: 1,
    });
    expect(
      await valuesBy(
        `sum by (route) (preflight_request_duration_seconds_count{job="${JOB}", route="/preflight"})`,
        'route',
      ),
    ).toEqual({ '/preflight': 6 });
    expect(await valuesBy(`sum by (result) (preflight_policy_reloads_total{job="${JOB}"})`, 'result')).toEqual({
      success: 1,
      failure: 0,
    });
    expect(await valuesBy(`preflight_policies_loaded{job="${JOB}"}`, 'job')).toEqual({ [JOB]: 1 });
  }, 40000);

  it('writes one audit line per decision on stdout, apart from the operational lines', () => {
    const audit = service
      .output()
      .split('\n')
      .filter((l) => l.includes('"log":"audit"'))
      .map((l) => JSON.parse(l) as { decision: string; status: number });
    expect(audit.map((a) => [a.decision, a.status])).toEqual([
      ['allow', 200],
      ['allow', 200],
      ['allow', 200],
      ['deny', 403],
      ['deny', 403],
      ['error', 401],
    ]);
  });

  it('every query of the Grafana dashboard is valid PromQL for the real Prometheus', async () => {
    const dashboard = JSON.parse(readFileSync(join(ROOT, 'helm', 'dashboards', 'preflight-gate.json'), 'utf8')) as {
      panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
      templating: { list: Array<{ name: string }> };
    };
    // The panels must be there, each with a query: an empty dashboard would pass the loop.
    const titles = dashboard.panels.map((p) => p.title.toLowerCase()).join(' | ');
    for (const topic of ['decision', 'denying polic', 'latency', 'reload']) expect(titles).toContain(topic);
    expect(dashboard.panels.every((p) => p.targets.length > 0)).toBe(true);
    // Every query follows the cluster and namespace template variables (several installations, one Grafana).
    for (const panel of dashboard.panels)
      for (const { expr } of panel.targets)
        expect([panel.title, expr]).toEqual([
          panel.title,
          expect.stringContaining('cluster=~"$cluster", namespace=~"$namespace"'),
        ]);
    expect(dashboard.templating.list.map((v) => v.name)).toEqual(['datasource', 'cluster', 'namespace', 'job']);
    for (const panel of dashboard.panels) {
      for (const { expr } of panel.targets) {
        const promql = expr
          .replaceAll('$job', JOB)
          .replaceAll('$cluster', '.*')
          .replaceAll('$namespace', '.*')
          .replaceAll('$__rate_interval', '1m')
          .replaceAll('$__range', '1h');
        const result = await prometheus.query(promql);
        expect({ panel: panel.title, status: result.status }).toEqual({ panel: panel.title, status: 'success' });
      }
    }
  });

  it('`promtool check metrics` finds no problem in the real /metrics output', async () => {
    const text = await (await fetch(`${service.url}/metrics`)).text();
    expect(text).toContain('preflight_policy_results_total{policy="no-payments",result="deny",mode="enforce"} 2');
    expect(text).toContain('process_cpu_seconds_total');
    // Guardrails with memory: events by outcome (known labels at 0) and the state store (in memory here).
    expect(text).toContain('preflight_events_total{event="killswitch.engaged",outcome="unavailable"} 0');
    expect(text).toContain('preflight_events_total{event="other",outcome="unauthorized"} 0');
    expect(text).toContain('preflight_state_store_up{store="memory"} 1');
    const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect({ status: check.status, problems: check.stdout + check.stderr }).toEqual({ status: 0, problems: '' });
  });
});
