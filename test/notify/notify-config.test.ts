import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/common/env-values';
import { parseNotifyConfig } from '../../src/notify/notify-config';

const SECRET = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'notify-config-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (text: string) => {
  const path = join(dir, `targets-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, text);
  return path;
};
const problem = (env: NodeJS.ProcessEnv) => {
  try {
    parseNotifyConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  return 'no error';
};

describe('notification settings', () => {
  it('are off without NOTIFY_WEBHOOK_URL and NOTIFY_TARGETS_FILE', () => {
    expect(parseNotifyConfig({}).targets).toEqual([]);
  });

  it('NOTIFY_WEBHOOK_URL + NOTIFY_WEBHOOK_SECRET: one generic webhook, named webhook, told of denials; runs linked from STEADYBIT_URL', () => {
    const config = parseNotifyConfig({
      NOTIFY_WEBHOOK_URL: 'https://hooks.example.com/in',
      NOTIFY_WEBHOOK_SECRET: SECRET,
      STEADYBIT_URL: 'https://sb.example.com/',
    });
    expect(config.targets).toEqual([
      expect.objectContaining({
        name: 'webhook',
        type: 'webhook',
        url: 'https://hooks.example.com/in',
        filter: { events: ['denied'] },
      }),
    ]);
    expect(config.runUrl).toBe('https://sb.example.com/experiments/{experimentKey}/executions/{executionId}');
    expect(config).toMatchObject({ dedupeWindowMs: 30_000, queueSize: 500, timeoutMs: 5000, maxAttempts: 5 });
  });

  it.each([
    [{ NOTIFY_WEBHOOK_URL: 'https://h.example.com' }, 'NOTIFY_WEBHOOK_URL is set but NOTIFY_WEBHOOK_SECRET is not'],
    [{ NOTIFY_WEBHOOK_SECRET: SECRET }, 'NOTIFY_WEBHOOK_SECRET is set but NOTIFY_WEBHOOK_URL is not'],
    [
      { NOTIFY_WEBHOOK_URL: 'https://h.example.com', NOTIFY_WEBHOOK_SECRET: 'hunter2' },
      'NOTIFY_WEBHOOK_SECRET must be a Standard Webhooks secret, whsec_ followed by base64',
    ],
    [
      { NOTIFY_WEBHOOK_URL: 'https://h.example.com', NOTIFY_WEBHOOK_SECRET: 'whsec_c2hvcnQ=' },
      'NOTIFY_WEBHOOK_SECRET: the key must be 24 to 64 bytes',
    ],
    [
      { NOTIFY_WEBHOOK_URL: 'https://h.example.com', NOTIFY_WEBHOOK_SECRET: 'whsec_not base64!' },
      'NOTIFY_WEBHOOK_SECRET: the part after whsec_ is not base64',
    ],
    [
      { NOTIFY_WEBHOOK_URL: 'ftp://h.example.com', NOTIFY_WEBHOOK_SECRET: SECRET },
      'NOTIFY_WEBHOOK_URL must start with https://',
    ],
    [
      {
        NOTIFY_WEBHOOK_URL: 'https://h.example.com',
        NOTIFY_WEBHOOK_SECRET: SECRET,
        NOTIFY_RUN_URL: 'https://sb/{run}',
      },
      'NOTIFY_RUN_URL: unknown placeholder {run}',
    ],
    [{ NOTIFY_DEDUPE_WINDOW: 'soon' }, 'NOTIFY_DEDUPE_WINDOW must be a duration'],
    [{ NOTIFY_QUEUE_SIZE: '0' }, 'NOTIFY_QUEUE_SIZE must be a whole number from 1 to 100000'],
  ])('refuses %j: %s', (env, message) => {
    expect(problem(env)).toContain(message);
  });

  it('reads several targets with their filters from NOTIFY_TARGETS_FILE, URLs and secrets from variables or files', () => {
    const urlFile = join(dir, 'teams-url');
    writeFileSync(
      urlFile,
      'https://prod-00.westeurope.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?sig=s3cret\n',
    );
    const config = parseNotifyConfig({
      SLACK_URL: 'https://hooks.slack.com/services/T0/B0/xyz',
      AUDIT_SECRET: SECRET,
      NOTIFY_TARGETS_FILE: file(`
targets:
  - name: platform-slack
    type: slack
    urlEnv: SLACK_URL
    events: [denied, stopped, emergency-stop-engaged, emergency-stop-released]
    environments: [production]
    modes: [enforce]
    rateLimit: { perMinute: 20, burst: 5 }
  - name: payments-teams
    type: teams
    urlFile: ${urlFile}
    events: [denied, warned, waived]
    teams: [PAY]
  - name: audit
    type: webhook
    url: https://audit.example.com/preflight
    secretEnv: AUDIT_SECRET
    events: [denied, warned, waived, stopped, policy-rejected, emergency-stop-engaged, emergency-stop-released]
  - name: alerts
    type: alertmanager
    url: http://alertmanager.monitoring:9093
    events: [denied, policy-rejected]
    policies: [production-guardrails]
    resolveAfter: 2h
`),
    });
    expect(config.targets.map((t) => [t.name, t.type, t.url])).toEqual([
      ['platform-slack', 'slack', 'https://hooks.slack.com/services/T0/B0/xyz'],
      [
        'payments-teams',
        'teams',
        'https://prod-00.westeurope.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?sig=s3cret',
      ],
      ['audit', 'webhook', 'https://audit.example.com/preflight'],
      ['alerts', 'alertmanager', 'http://alertmanager.monitoring:9093/'],
    ]);
    expect(config.targets[0]).toMatchObject({
      filter: { environments: ['production'], modes: ['enforce'] },
      rate: { perMinute: 20, burst: 5 },
    });
    expect(config.targets[3]).toMatchObject({
      resolveAfterMs: 7_200_000,
      filter: { policies: ['production-guardrails'] },
    });
  });

  it.each([
    ['targets:\n  - name: s\n    type: slack\n    events: [denied]\n', 'targets[0] (s): give url, urlEnv or urlFile'],
    [
      'targets:\n  - name: s\n    type: slack\n    url: https://x.example.com\n    events: [denyed]\n',
      'targets[0].events[0]: must be one of denied, warned',
    ],
    [
      'targets:\n  - name: w\n    type: webhook\n    url: https://x.example.com\n    events: [denied]\n',
      'a webhook target is signed: give secret, secretEnv or secretFile',
    ],
    [
      'targets:\n  - name: s\n    type: slack\n    url: https://x.example.com\n    secret: x\n    events: [denied]\n',
      'only webhook targets are signed',
    ],
    [
      'targets:\n  - name: s\n    type: slack\n    urlEnv: NOPE\n    events: [denied]\n',
      'the environment variable NOPE is not set',
    ],
    [
      'targets:\n  - name: s\n    type: slack\n    url: https://x.example.com\n    events: [denied]\n  - name: s\n    type: teams\n    url: https://y.example.com\n    events: [denied]\n',
      'names the target "s" twice',
    ],
    [
      'targets:\n  - name: s\n    type: pager\n    url: https://x.example.com\n    events: [denied]\n',
      'targets[0].type: must be one of slack, teams, webhook, alertmanager',
    ],
    [
      'targets:\n  - name: a\n    type: alertmanager\n    url: https://x.example.com\n    events: [denied]\n    resolveAfter: 5s\n',
      'resolveAfter must be a duration of at least 1m',
    ],
    ['targets: [', 'is not valid YAML'],
  ])('refuses a targets file with a mistake (%#): %s', (text, message) => {
    expect(problem({ NOTIFY_TARGETS_FILE: file(text) })).toContain(message);
  });

  it('never repeats a target URL in an error (it may hold a token)', () => {
    expect(
      problem({
        NOTIFY_TARGETS_FILE: file(
          'targets:\n  - name: s\n    type: slack\n    url: "hooks.slack.com/services/T0/SECRET"\n    events: [denied]\n',
        ),
      }),
    ).not.toContain('SECRET');
  });
});
