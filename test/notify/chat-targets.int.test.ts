import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { Webhook } from 'standardwebhooks';
import { createNotifier, type Notifier } from '../../src/notify/notifier';
import { parseNotifyConfig } from '../../src/notify/notify-config';
import {
  emergencyStopNotification,
  policyRejectedNotification,
  runStoppedNotification,
} from '../../src/notify/event-notifications';
import { parseEventTime } from '../../src/state/event-time';
import type { EventTime } from '../../src/state/event-time';
import { createLogger } from '../../src/common/logger';
import { FIXTURES } from '../helpers/fixtures';
import { ROOT } from '../helpers/server-process';
import { startFakeReceiver, type FakeReceiver, type Received } from '../helpers/fake-receiver';
import { until } from '../helpers/manual-timers';
import { startAlertmanager, type AlertmanagerServer } from '../signals/alertmanager-server';
import { decidedRun, runIn } from './decided-runs';

const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const schema = (path: string) => ajv.compile(JSON.parse(readFileSync(path, 'utf8')) as object);
const slackSchema = schema(join(FIXTURES, 'notify', 'slack-incoming-webhook.schema.json'));
const teamsSchema = schema(join(FIXTURES, 'notify', 'teams-workflows-adaptive-card.schema.json'));
const webhookSchema = schema(join(ROOT, 'docs', 'notification-webhook.schema.json'));

/** Checks a body against a schema, as the real service would refuse it (Slack: 400 invalid_blocks). */
const against = (validate: ReturnType<typeof ajv.compile>) => (r: Received) => {
  if (r.headers['content-type'] !== 'application/json') return `content-type ${String(r.headers['content-type'])}`;
  return validate(JSON.parse(r.body)) ? undefined : ajv.errorsText(validate.errors);
};
const signed = (r: Received) => {
  try {
    new Webhook(SECRET).verify(r.body, {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    });
  } catch (err) {
    return `signature: ${(err as Error).message}`;
  }
  return against(webhookSchema)(r);
};
const time = (text: string) => parseEventTime(text) as EventTime;

describe('Slack, Teams, the generic webhook and a real Alertmanager, each with its filter', () => {
  let slack: FakeReceiver;
  let teams: FakeReceiver;
  let webhook: FakeReceiver;
  let alertmanager: AlertmanagerServer;
  let notifier: Notifier;
  let registry: Registry;
  let dir: string;

  beforeAll(async () => {
    [slack, teams, webhook, alertmanager] = await Promise.all([
      startFakeReceiver({ check: against(slackSchema), fallback: { status: 200, body: 'ok' } }),
      startFakeReceiver({ check: against(teamsSchema), fallback: { status: 202, body: '' } }),
      startFakeReceiver({ check: signed, fallback: { status: 204, body: '' } }),
      startAlertmanager(),
    ]);
    dir = mkdtempSync(join(tmpdir(), 'notify-targets-'));
    const file = join(dir, 'targets.yaml');
    writeFileSync(
      file,
      `
targets:
  - name: platform-slack
    type: slack
    urlEnv: SLACK_URL
    events: [denied, stopped, policy-rejected, emergency-stop-engaged, emergency-stop-released]
  - name: adm-teams
    type: teams
    urlEnv: TEAMS_URL
    events: [denied, warned, waived, stopped]
    teams: [adm]
  - name: audit
    type: webhook
    url: ${webhook.url}
    secretEnv: AUDIT_SECRET
    events: [denied, warned, waived, stopped, policy-rejected, emergency-stop-engaged, emergency-stop-released]
  - name: alerts
    type: alertmanager
    url: ${alertmanager.url}
    events: [denied, emergency-stop-engaged, emergency-stop-released]
    modes: [enforce]
`,
    );
    registry = new Registry();
    const config = parseNotifyConfig({
      NOTIFY_TARGETS_FILE: file,
      SLACK_URL: slack.url,
      TEAMS_URL: teams.url,
      AUDIT_SECRET: SECRET,
      NOTIFY_DEDUPE_WINDOW: '0s',
      STEADYBIT_URL: 'https://platform.steadybit.com',
    });
    notifier = createNotifier(config, {
      registry,
      logger: createLogger('error', { silent: true }),
      redaction: { kind: 'all' },
    });

    notifier.decided(
      decidedRun(
        runIn('kube-system', (p) => {
          p.execution.name = 'Checkout <survives> & recovers';
        }),
        'd-deny',
      ),
    );
    notifier.decided(decidedRun(runIn('payments'), 'd-warn'));
    notifier.decided(decidedRun(runIn('staging-db'), 'd-waive'));
    notifier.decided(decidedRun(runIn('web'), 'd-clean'));
    notifier.decided(
      decidedRun(
        runIn('kube-system', (p) => {
          p.execution.teamKey = 'PAY';
          p.execution.experimentKey = 'PAY-3';
        }),
        'd-pay',
      ),
    );
    const now = new Date();
    notifier.notify(
      policyRejectedNotification(
        'watch',
        ['policies/prod.yaml:12:5: rules[0].timeWindow.days: must be one of MON, TUE'],
        '30d015581208',
        now,
      ),
    );
    notifier.notify(
      runStoppedNotification(
        {
          executionId: '9',
          experimentKey: 'ADM-9',
          team: 'ADM',
          environment: 'production',
          policy: 'error-budget-burn',
          reason: 'burn rate 14.2 > 10',
          stoppedBy: [
            {
              policy: 'error-budget-burn',
              mode: 'enforce',
              reason: 'burn rate 14.2 > 10',
              action: 'stop',
              cannotJudge: false,
            },
          ],
          decisionId: 'd-guard',
          allowedBy: 'd-pay',
          at: now.toISOString(),
          revision: '30d015581208',
        },
        config.runUrl,
      ),
    );
    notifier.notify(
      emergencyStopNotification(
        {
          kind: 'killswitch',
          name: 'killswitch.engaged',
          time: time(now.toISOString()),
          engaged: true,
          changedAt: time(now.toISOString()),
          by: 'Jane Doe',
          dedupeKey: 'k1',
        },
        now,
      ),
    );
    await until(
      async () => {
        const values = (await registry.getSingleMetric('preflight_notifications_total')?.get())?.values ?? [];
        return values.filter((v) => v.labels.outcome === 'sent').reduce((sum, v) => sum + v.value, 0) === 19;
      },
      'every message sent (Slack 5, Teams 4, webhook 7, Alertmanager 3)',
      15000,
    );
  }, 30000);
  afterAll(async () => {
    await notifier.close(1000);
    await Promise.all([slack.close(), teams.close(), webhook.close(), alertmanager.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const titles = <Body>(r: FakeReceiver, title: (body: Body) => string) =>
    r.received.map((x) => title(JSON.parse(x.body) as Body)).sort();

  it('Slack gets Block Kit messages for its events, every one valid; mrkdwn escaped', () => {
    expect(slack.problems).toEqual([]);
    expect(titles(slack, (b: { text: string }) => b.text)).toEqual([
      'A policy change was rejected',
      'Emergency stop engaged by Jane Doe',
      'Run 1 of ADM-1 denied by no-kube-system',
      'Run 1 of PAY-3 denied by no-kube-system',
      'Run 9 of ADM-9 stopped while running by error-budget-burn',
    ]);
    const denial = JSON.parse(slack.received.find((r) => r.body.includes('ADM-1 denied'))?.body ?? '{}');
    expect(JSON.stringify(denial)).toContain('ADM-1 (Checkout &lt;survives&gt; &amp; recovers)');
    expect(denial.blocks.at(-1)).toEqual({
      type: 'actions',
      elements: [
        {
          type: 'button',
          text: { type: 'plain_text', text: 'Open the run' },
          url: 'https://platform.steadybit.com/experiments/ADM-1/executions/1',
        },
      ],
    });
    expect(JSON.stringify(denial)).not.toMatch(/namespace=kube-system|checkout-7d9f/);
  });

  it('Teams gets Adaptive Cards for team ADM only: the denial, the warning, the waiver and the stop', () => {
    expect(teams.problems).toEqual([]);
    expect(
      titles(
        teams,
        (b: { attachments: Array<{ content: { body: Array<{ text: string }> } }> }) =>
          b.attachments[0].content.body[0].text,
      ),
    ).toEqual([
      'Run 1 of ADM-1 allowed with warnings from small-runs',
      'Run 1 of ADM-1 allowed: no-staging-db waived by an exception',
      'Run 1 of ADM-1 denied by no-kube-system',
      'Run 9 of ADM-9 stopped while running by error-budget-burn',
    ]);
    const waiver = JSON.parse(teams.received.find((r) => r.body.includes('waived'))?.body ?? '{}').attachments[0]
      .content;
    expect(waiver.body[3].text).toBe(
      '- no-staging-db (enforce): waived by exception "staging-db-drill" (owner sre@example.com, until 2099-01-01T00:00:00.000Z: quarterly restore drill); would have denied: target [redacted] of step "com.steadybit.extension_kubernetes.delete_pod" (steps[0]) has k8s.namespace=[redacted], which is forbidden',
    );
  });

  it('the generic webhook gets every kind, each signed and of the documented shape', () => {
    expect(webhook.problems).toEqual([]);
    expect(webhook.received.map((r) => JSON.parse(r.body).type).sort()).toEqual([
      'preflight-gate.denied',
      'preflight-gate.denied',
      'preflight-gate.emergency-stop-engaged',
      'preflight-gate.policy-rejected',
      'preflight-gate.stopped',
      'preflight-gate.waived',
      'preflight-gate.warned',
    ]);
  });

  it('Alertmanager holds an alert per denial (enforce mode) and the emergency stop, with labels to route by; releasing the stop resolves its alert', async () => {
    const alerts = async () =>
      (await (
        await fetch(`${alertmanager.url}/api/v2/alerts?active=true&silenced=false&inhibited=false`)
      ).json()) as Array<{ labels: Record<string, string>; annotations: Record<string, string> }>;
    const names = (await alerts()).map((a) => `${a.labels.alertname} ${a.labels.team ?? ''}`.trim()).sort();
    expect(names).toEqual(['PreflightGateEmergencyStop', 'PreflightGateRunDenied ADM', 'PreflightGateRunDenied PAY']);
    const denial = (await alerts()).find((a) => a.labels.team === 'ADM');
    expect(denial).toMatchObject({
      labels: {
        alertname: 'PreflightGateRunDenied',
        severity: 'warning',
        service: 'preflight-gate',
        kind: 'denied',
        team: 'ADM',
        experiment: 'ADM-1',
        policies: 'no-kube-system',
      },
      annotations: { summary: 'Run 1 of ADM-1 denied by no-kube-system', decision_id: 'd-deny' },
    });
    const now = new Date();
    notifier.notify(
      emergencyStopNotification(
        {
          kind: 'killswitch',
          name: 'killswitch.disengaged',
          time: time(now.toISOString()),
          engaged: false,
          changedAt: time(now.toISOString()),
          by: 'Jane Doe',
          dedupeKey: 'k2',
        },
        now,
      ),
    );
    await until(
      async () => !(await alerts()).some((a) => a.labels.alertname === 'PreflightGateEmergencyStop'),
      'the stop alert resolved',
      10000,
    );
  });
});
