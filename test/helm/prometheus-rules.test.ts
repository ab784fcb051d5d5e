import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ALL_OPTIONS, find, render } from './render-chart';

/** The chart's PrometheusRule alerts, checked and unit-tested by the real promtool. */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chart-rules-'));
  const rule = find(render({}, [ALL_OPTIONS]), 'PrometheusRule');
  writeFileSync(join(dir, 'rules.yaml'), stringify({ groups: (rule.spec as { groups: unknown[] }).groups }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const promtool = (...args: string[]) => {
  const run = spawnSync('promtool', args, { cwd: dir, encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
};

const SERIES = [
  // A policy set rejected at minute 3.
  ['preflight_policy_reloads_total{result="failure",namespace="chaos",pod="p1"}', '0 0 0 1 1 1 1 1 1 1'],
  // Two error answers at minute 3.
  ['preflight_decisions_total{decision="error",namespace="chaos"}', '0 0 0 2 2 2 2'],
  // 30 bad signatures at minute 3.
  ['preflight_signature_failures_total{reason="mismatch",namespace="chaos"}', '0 0 0 30 30 30'],
  // Every request between 0.5 s and 1 s from the start.
  ['preflight_request_duration_seconds_bucket{route="/preflight",le="0.5",namespace="chaos"}', '0+0x30'],
  ['preflight_request_duration_seconds_bucket{route="/preflight",le="1",namespace="chaos"}', '0+10x30'],
  ['preflight_request_duration_seconds_bucket{route="/preflight",le="+Inf",namespace="chaos"}', '0+10x30'],
  // Pod p1 loses Redis at minute 2 for good; p2 only for one scrape (a reconnect); p3 keeps its memory store.
  ['preflight_state_store_up{store="redis",namespace="chaos",pod="p1"}', '1 1 0 0 0 0 0 0 0 0'],
  ['preflight_state_store_up{store="redis",namespace="chaos",pod="p2"}', '1 1 0 1 1 1 1 1 1 1'],
  ['preflight_state_store_up{store="memory",namespace="chaos",pod="p3"}', '1+0x10'],
];

const alert = (alertname: string, eval_time: string, labels: Record<string, string>, summary: string, description: string) => ({
  alertname, eval_time, exp_alerts: [{ exp_labels: { severity: 'warning', namespace: 'chaos', ...labels }, exp_annotations: { summary, description } }],
});
const STORE_DOWN_DENY = 'With state.unavailable=deny every preflight that needs state (the built-in emergency stop, concurrency, cool-down, quota) answers 503, so those runs do not start.';
const silent = (alertname: string, eval_time: string) => ({ alertname, eval_time, exp_alerts: [] });

const ALERT_TESTS = [
  silent('PreflightGatePolicyReloadFailed', '2m'),
  alert('PreflightGatePolicyReloadFailed', '5m', { pod: 'p1' }, 'A policy change was rejected; the previous policy set is still in use.',
    'Pod p1 rejected a policy set in the last 15 minutes. The runs are still decided by the previous revision; see /readyz (lastLoad) and the service log for the file, line and problem.'),
  silent('PreflightGateErrorDecisions', '2m'),
  alert('PreflightGateErrorDecisions', '5m', {}, 'Experiment runs were stopped by errors, not by policies.',
    '2 preflight requests in the last 10 minutes got an error answer (bad signature, invalid payload, no policy set, or an internal error), so those runs did not start. The audit log lines with "decision":"error" say why.'),
  silent('PreflightGateSignatureFailureSpike', '2m'),
  alert('PreflightGateSignatureFailureSpike', '4m', { reason: 'mismatch' }, 'Many webhook requests with a bad signature.',
    '30 requests failed the signature check (mismatch) in 5 minutes: the secret in Steadybit and in the chart differ, or someone is probing the endpoint.'),
  // `for: 10m`: pending, not firing, after 5 minutes of slow answers.
  silent('PreflightGateLatencyHigh', '5m'),
  alert('PreflightGateLatencyHigh', '20m', {}, 'Preflight answers are slow (p99).',
    'The 99th percentile of POST /preflight took 995ms over the last 5 minutes; Steadybit waits for this answer before every run.'),
  // `for: 3m`: p1 pending from minute 2, firing from minute 5; p2's one-minute gap never fires.
  silent('PreflightGateStateStoreDown', '1m'),
  silent('PreflightGateStateStoreDown', '4m'),
  alert('PreflightGateStateStoreDown', '6m', { severity: 'critical', pod: 'p1', store: 'redis' }, 'The state store is unreachable; runs that need state are denied.',
    `Pod p1 has not reached its redis state store for 3m. ${STORE_DOWN_DENY} POST /events answers 503 meanwhile, so Steadybit's deliveries fail and the state misses those events. /readyz (state.message) and the service log say why.`),
];

describe("the chart's PrometheusRule", () => {
  it('passes `promtool check rules` (5 alerts)', () => {
    const check = promtool('check', 'rules', 'rules.yaml');
    expect(check).toEqual({ status: 0, output: expect.stringContaining('SUCCESS: 5 rules found') });
  });

  it('fires each alert on its incident, with its labels and rendered annotations, and stays silent before (`promtool test rules`)', () => {
    writeFileSync(join(dir, 'alerts.test.yaml'), stringify({
      rule_files: ['rules.yaml'],
      evaluation_interval: '1m',
      tests: [{ interval: '1m', input_series: SERIES.map(([series, values]) => ({ series, values })), alert_rule_test: ALERT_TESTS }],
    }));
    const run = promtool('test', 'rules', 'alerts.test.yaml');
    expect(run.output).toContain('SUCCESS');
    expect(run.status).toBe(0);
  });

  it('with state.unavailable=allow the state store alert says the guardrails with memory are off, not that runs are denied', () => {
    const rules = (find(render({ 'state.unavailable': 'allow' }, [ALL_OPTIONS]), 'PrometheusRule').spec as { groups: Array<{ rules: Array<{ alert: string; annotations: Record<string, string> }> }> }).groups[0].rules;
    const down = rules.find((r) => r.alert === 'PreflightGateStateStoreDown');
    expect(down?.annotations.summary).toBe('The state store is unreachable; runs start without the guardrails with memory (state.unavailable=allow).');
    expect(down?.annotations.description).toContain('the emergency stop, concurrency caps, cool-downs and quotas are not applied');
  });
});
