import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ROOT } from '../helpers/server-process';
import { ALL_OPTIONS, CHART, find, render } from './render-chart';

/** The chart's PrometheusRule alerts, checked and unit-tested by the real promtool. */
interface Rule {
  alert: string;
  expr: string;
  annotations: Record<string, string>;
  labels: Record<string, string>;
}
let dir: string;
let rules: Rule[];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chart-rules-'));
  const rule = find(render({}, [ALL_OPTIONS]), 'PrometheusRule');
  const groups = (rule.spec as { groups: Array<{ rules: Rule[] }> }).groups;
  rules = groups.flatMap((g) => g.rules);
  writeFileSync(join(dir, 'rules.yaml'), stringify({ groups }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const promtool = (...args: string[]) => {
  const run = spawnSync('promtool', args, { cwd: dir, encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
};

const RUNBOOK = 'https://git.example.com/platform/preflight-gate/blob/main/docs/runbook.md';
const ALERTS = [
  'PreflightGateDown',
  'PreflightGatePolicyReloadFailed',
  'PreflightGateErrorDecisions',
  'PreflightGateSignatureFailureSpike',
  'PreflightGateLatencyHigh',
  'PreflightGateStateStoreDown',
  'PreflightGateSignalSourceFailing',
  'PreflightGateNotificationsFailing',
  'PreflightGateGuardCancelsFailing',
];
const UP = 'up{job="pg-preflight-gate",namespace="chaos"';
const requests = (ns: string, status: string) =>
  `preflight_request_duration_seconds_count{route="/preflight",status="${status}",namespace="${ns}"}`;

/** Namespace "chaos": one incident per alert; "sig": 12 bad signatures only; "state": Redis lost, its 503s. */
const SERIES = [
  [`${UP},instance="10.0.0.1:8080"}`, '1 1 0 0 0 0 0 0 0 0 0 0'],
  ['preflight_policy_reloads_total{result="failure",namespace="chaos",pod="p1"}', '0 0 0 1 1 1 1 1 1 1'],
  [requests('chaos', '500'), '0 0 0 2 2 2 2'],
  [requests('chaos', '200'), '0+5x30'],
  ['preflight_request_duration_seconds_bucket{route="/preflight",le="0.5",namespace="chaos"}', '0+0x30'],
  ['preflight_request_duration_seconds_bucket{route="/preflight",le="1",namespace="chaos"}', '0+10x30'],
  ['preflight_request_duration_seconds_bucket{route="/preflight",le="+Inf",namespace="chaos"}', '0+10x30'],
  ['preflight_state_store_up{store="memory",namespace="chaos",pod="p3"}', '1+0x30'],
  // 12 bad signatures at minute 3 (6 mismatched, 6 missing), answered 401.
  ['preflight_signature_failures_total{reason="mismatch",namespace="sig"}', '0 0 0 6 6 6 6 6'],
  ['preflight_signature_failures_total{reason="missing",namespace="sig"}', '0 0 0 6 6 6 6 6'],
  [requests('sig', '401'), '0 0 0 12 12 12 12 12'],
  // Pod s1 loses Redis at minute 2 for good (its preflights answer 503); s2 only for one scrape.
  ['preflight_state_store_up{store="redis",namespace="state",pod="s1"}', '1 1 0 0 0 0 0 0 0 0'],
  ['preflight_state_store_up{store="redis",namespace="state",pod="s2"}', '1 1 0 1 1 1 1 1 1 1'],
  [requests('state', '503'), '0 0 0 5 10 15 20 25 30 35'],
  // Namespace "signals": its Prometheus stops answering at minute 3 (3 failed queries, their runs denied: 403s); its Alertmanager is fine.
  [
    'preflight_signal_queries_total{kind="prometheus",source="default",outcome="error",namespace="signals"}',
    '0 0 0 3 3 3 3 3',
  ],
  [
    'preflight_signal_queries_total{kind="prometheus",source="default",outcome="ok",namespace="signals"}',
    '0 4 8 8 8 8 8 8',
  ],
  [
    'preflight_signal_queries_total{kind="alertmanager",source="default",outcome="error",namespace="signals"}',
    '0+0x10',
  ],
  ['preflight_signal_queries_total{kind="alertmanager",source="default",outcome="ok",namespace="signals"}', '0+4x10'],
  [requests('signals', '403'), '0 0 0 3 3 3 3 3'],
  // Namespace "notify": its Slack webhook was revoked at minute 3 (2 messages rejected); its Teams target is fine.
  ['preflight_notifications_total{target="platform-slack",outcome="rejected",namespace="notify"}', '0 0 0 2 2 2 2 2'],
  ['preflight_notifications_total{target="platform-slack",outcome="sent",namespace="notify"}', '0 1 2 2 2 2 2 2'],
  ['preflight_notifications_total{target="adm-teams",outcome="sent",namespace="notify"}', '0+1x10'],
  ['preflight_notifications_total{target="adm-teams",outcome="failed",namespace="notify"}', '0+0x10'],
  // Namespace "guard": from minute 3 the token may no longer cancel (2 failed cancels, then none).
  ['preflight_guard_cancel_failures_total{reason="unauthorized",namespace="guard",pod="g1"}', '0 0 0 1 2 2 2 2'],
  ['preflight_guard_cancel_failures_total{reason="server_error",namespace="guard",pod="g1"}', '0+0x10'],
];

const alert = (
  alertname: string,
  eval_time: string,
  labels: Record<string, string>,
  summary: string,
  description: string,
) => ({
  alertname,
  eval_time,
  exp_alerts: [
    {
      exp_labels: { severity: 'warning', ...labels },
      exp_annotations: { summary, description, runbook_url: `${RUNBOOK}#${alertname.toLowerCase()}` },
    },
  ],
});
const silent = (alertname: string, eval_time: string) => ({ alertname, eval_time, exp_alerts: [] });
const STORE_DOWN_DENY =
  'With state.unavailable=deny every preflight that needs state (the built-in emergency stop, concurrency, cool-down, quota) answers 503, so those runs do not start.';
const DOWN = [
  'preflight-gate is down or not scraped; Steadybit runs do not start while it is unreachable.',
  'Prometheus has not scraped pg-preflight-gate in namespace chaos for 5m (target down or no target at all). Steadybit gets no preflight answer, so no experiment run starts; the emergency stop still holds.',
] as const;

const INCIDENTS = [
  // `for: 5m`: the target is down from minute 2, the alert fires from minute 7.
  silent('PreflightGateDown', '1m'),
  silent('PreflightGateDown', '6m'),
  alert(
    'PreflightGateDown',
    '8m',
    { severity: 'critical', job: 'pg-preflight-gate', namespace: 'chaos', instance: '10.0.0.1:8080' },
    ...DOWN,
  ),
  silent('PreflightGatePolicyReloadFailed', '2m'),
  alert(
    'PreflightGatePolicyReloadFailed',
    '5m',
    { namespace: 'chaos', pod: 'p1' },
    'A policy change was rejected; the previous policy set is still in use.',
    'Pod p1 rejected a policy set in the last 15 minutes. The runs are still decided by the previous revision; see /readyz (lastLoad) and the service log for the file, line and problem.',
  ),
  // Only namespace chaos: the 401s of "sig" and the 503s of "state" belong to their own alerts.
  silent('PreflightGateErrorDecisions', '2m'),
  alert(
    'PreflightGateErrorDecisions',
    '5m',
    { namespace: 'chaos' },
    'Experiment runs were stopped by errors, not by policies.',
    '2 preflight requests in the last 10 minutes got an error answer (invalid payload, no policy set, a policy that could not decide, or an internal error), so those runs did not start. The audit log lines with "decision":"error" say why.',
  ),
  silent('PreflightGateSignatureFailureSpike', '2m'),
  alert(
    'PreflightGateSignatureFailureSpike',
    '4m',
    { namespace: 'sig' },
    'Many webhook requests with a bad signature.',
    '12 requests failed the signature check in 5 minutes (preflight_signature_failures_total by reason: missing, malformed, mismatch): the secret in Steadybit and in the chart differ, or someone is probing the endpoint. Those preflights were answered 401, so those runs did not start.',
  ),
  // `for: 10m`: pending, not firing, after 5 minutes of slow answers.
  silent('PreflightGateLatencyHigh', '5m'),
  alert(
    'PreflightGateLatencyHigh',
    '20m',
    { namespace: 'chaos' },
    'Preflight answers are slow (p99).',
    'The 99th percentile of POST /preflight took 995ms over the last 5 minutes; Steadybit waits for this answer before every run.',
  ),
  // `for: 3m`: s1 pending from minute 2, firing from minute 5; s2's one-minute gap never fires.
  silent('PreflightGateStateStoreDown', '1m'),
  silent('PreflightGateStateStoreDown', '4m'),
  alert(
    'PreflightGateStateStoreDown',
    '6m',
    { severity: 'critical', namespace: 'state', pod: 's1', store: 'redis' },
    'The state store is unreachable; runs that need state are denied.',
    `Pod s1 has not reached its redis state store for 3m. ${STORE_DOWN_DENY} POST /events answers 503 meanwhile, so Steadybit's deliveries fail and the state misses those events. /readyz (state.message) and the service log say why.`,
  ),
  silent('PreflightGateSignalSourceFailing', '2m'),
  alert(
    'PreflightGateSignalSourceFailing',
    '5m',
    { namespace: 'signals', kind: 'prometheus', source: 'default' },
    'A live-signal source cannot answer; runs whose policies ask it are denied.',
    '3 queries to prometheus "default" failed (error or timeout) in the last 10 minutes. The alerts and prometheus rules that needed them could not decide, so those runs were denied (or allowed with a warning where the policy says onUnavailable: allow). The deny messages name the error.',
  ),
  silent('PreflightGateNotificationsFailing', '2m'),
  alert(
    'PreflightGateNotificationsFailing',
    '5m',
    { namespace: 'notify', target: 'platform-slack' },
    'Notifications do not reach a target; people are not told of denials, stops or the emergency stop.',
    '2 notifications for target "platform-slack" were dropped (queue full), rejected (a 4xx) or failed (5xx, 429 or no answer after every retry) in the last 15 minutes. Decisions are not affected. The service log line "notification not delivered" says why; preflight-gate notify --test --target platform-slack checks the wiring.',
  ),
  silent('PreflightGateGuardCancelsFailing', '2m'),
  alert(
    'PreflightGateGuardCancelsFailing',
    '5m',
    { severity: 'critical', namespace: 'guard', reason: 'unauthorized' },
    'The guard cannot cancel runs its policies no longer allow; those runs keep going.',
    '2 cancels of runs in progress failed (unauthorized) in the last 10 minutes: runs that a whileRunning policy stopped are still attacking. Each is tried again at every tick. The service log line "must be stopped but the cancel failed" names the run and the answer; stop them by hand in Steadybit if it persists. With reason unauthorized the token may not cancel that team\'s runs: /readyz guard.canStop is false and names the teams.',
  ),
];

/** Another cluster: nothing scrapes the release at all (absent), and one where all is well. */
const NOT_SCRAPED = [
  silent('PreflightGateDown', '4m'),
  alert('PreflightGateDown', '6m', { severity: 'critical', job: 'pg-preflight-gate', namespace: 'chaos' }, ...DOWN),
];
const HEALTHY_SERIES = [
  [`${UP},instance="10.0.0.1:8080"}`, '1+0x30'],
  [requests('chaos', '200'), '0+5x30'],
  [requests('chaos', '403'), '0+1x30'],
  ['preflight_state_store_up{store="redis",namespace="chaos",pod="p1"}', '1+0x30'],
  ['preflight_signal_queries_total{kind="alertmanager",source="default",outcome="ok",namespace="chaos"}', '0+5x30'],
  ['preflight_signal_queries_total{kind="alertmanager",source="default",outcome="error",namespace="chaos"}', '0+0x30'],
  [
    'preflight_signal_queries_total{kind="alertmanager",source="default",outcome="timeout",namespace="chaos"}',
    '0+0x30',
  ],
  ['preflight_notifications_total{target="webhook",outcome="sent",namespace="chaos"}', '0+2x30'],
  ['preflight_notifications_total{target="webhook",outcome="failed",namespace="chaos"}', '0+0x30'],
  ['preflight_guard_cancel_failures_total{reason="unauthorized",namespace="chaos"}', '0+0x30'],
];
const HEALTHY = ALERTS.map((a) => silent(a, '25m'));

const group = (series: string[][], alerts: object[]) => ({
  interval: '1m',
  input_series: series.map(([s, values]) => ({ series: s, values })),
  alert_rule_test: alerts,
});

describe("the chart's PrometheusRule", () => {
  it('passes `promtool check rules` (9 alerts)', () => {
    expect(rules.map((r) => r.alert)).toEqual(ALERTS);
    expect(promtool('check', 'rules', 'rules.yaml')).toEqual({
      status: 0,
      output: expect.stringContaining('SUCCESS: 9 rules found'),
    });
  });

  it('fires each alert on its incident, once per cause, with its labels and annotations, and stays silent before and when healthy (`promtool test rules`)', () => {
    const fired = new Set(INCIDENTS.filter((t) => t.exp_alerts.length > 0).map((t) => t.alertname));
    expect([...fired].sort()).toEqual([...ALERTS].sort());
    // promtool compares the whole list of an alert at an evaluation time: ErrorDecisions at 5m lists
    // only namespace chaos, so the 12 bad signatures (sig) and the lost Redis (state) do not fire it.
    writeFileSync(
      join(dir, 'alerts.test.yaml'),
      stringify({
        rule_files: ['rules.yaml'],
        evaluation_interval: '1m',
        tests: [group(SERIES, INCIDENTS), group([], NOT_SCRAPED), group(HEALTHY_SERIES, HEALTHY)],
      }),
    );
    const run = promtool('test', 'rules', 'alerts.test.yaml');
    expect(run.output).toContain('SUCCESS');
    expect(run.status).toBe(0);
  });

  it('gives every alert a runbook_url whose section exists in docs/runbook.md', () => {
    const anchors = readFileSync(join(ROOT, 'docs', 'runbook.md'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('## '))
      .map((l) =>
        l
          .slice(3)
          .trim()
          .toLowerCase()
          .replace(/[^a-z0-9 -]/g, '')
          .replace(/ /g, '-'),
      );
    for (const rule of rules)
      expect([rule.alert, rule.annotations.runbook_url]).toEqual([
        rule.alert,
        `${RUNBOOK}#${rule.alert.toLowerCase()}`,
      ]);
    expect(anchors).toEqual(expect.arrayContaining(ALERTS.map((a) => a.toLowerCase())));
  });

  it('prints counts as whole numbers (no 11.9999 from increase())', () => {
    for (const rule of rules)
      expect([rule.alert, rule.annotations.description]).not.toEqual([
        rule.alert,
        expect.stringMatching(/\$value \| humanize \}\}/),
      ]);
  });

  it('with state.unavailable=allow the state store alert says the guardrails with memory are off, not that runs are denied', () => {
    const allow = (
      find(render({ 'state.unavailable': 'allow' }, [ALL_OPTIONS]), 'PrometheusRule').spec as {
        groups: Array<{ rules: Rule[] }>;
      }
    ).groups[0].rules;
    const down = allow.find((r) => r.alert === 'PreflightGateStateStoreDown');
    expect(down?.annotations.summary).toBe(
      'The state store is unreachable; runs start without the guardrails with memory (state.unavailable=allow).',
    );
    expect(down?.annotations.description).toContain(
      'the emergency stop, concurrency caps, cool-downs and quotas are not applied',
    );
  });
});

describe("the guard's failed-cancel alert", () => {
  const alertsOf = (manifests: ReturnType<typeof render>) =>
    manifests
      .filter((m) => m.kind === 'PrometheusRule')
      .flatMap((m) => (m.spec as { groups: Array<{ rules: Rule[] }> }).groups.flatMap((g) => g.rules));
  const SECRET = { 'webhook.existingSecret': 'steadybit-webhook' };
  const RULES_ON = { 'metrics.prometheusRule.enabled': 'true' };
  const PLATFORM = { 'steadybit.url': 'https://platform.steadybit.com', 'steadybit.token': 't' };

  // Values files as they are (no --set): both install the rules.
  test.each([
    ['the default values (and a webhook Secret)', { ...SECRET, ...RULES_ON }, []],
    ['a Platform API connection', { ...SECRET, ...RULES_ON, ...PLATFORM }, []],
    ['ci/autoscaling-values.yaml', {}, [join(CHART, 'ci', 'autoscaling-values.yaml')]],
    ['ci/all-options-values.yaml', {}, [ALL_OPTIONS]],
  ])('is rendered, critical, wherever the chart installs alert rules: %s', (_, set, files) => {
    const cancels = alertsOf(render(set, files)).find((r) => r.alert === 'PreflightGateGuardCancelsFailing');
    expect(cancels).toMatchObject({
      labels: { severity: 'critical' },
      expr: expect.stringContaining('preflight_guard_cancel_failures_total'),
    });
  });

  test('is left out only when guard.cancelFailuresAlert is turned off, or with no alert rules at all', () => {
    const names = (set: Record<string, string>) => alertsOf(render(set)).map((r) => r.alert);
    expect(names({ ...SECRET, ...RULES_ON, 'guard.cancelFailuresAlert': 'false' })).not.toContain(
      'PreflightGateGuardCancelsFailing',
    );
    expect(names(SECRET)).toEqual([]);
  });
});
