import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { parseNotifyConfig } from '../../src/notify/notify-config';
import { deploymentOf, envFrom } from './pod-spec';
import { find, render, renderError } from './render-chart';

const SECRET = 'a-long-random-webhook-secret';
const WHSEC = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;

describe('chart values for notifications (docs/notifications.md)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'chart-notify-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const valuesFile = (values: object) => {
    const file = join(dir, `values-${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(file, stringify(values));
    return file;
  };

  it('turns nothing on by default', () => {
    const { container } = deploymentOf(find(render({ 'webhook.secret': SECRET }), 'Deployment'));
    expect(parseNotifyConfig(envFrom(container.env, {})).targets).toEqual([]);
  });

  it('passes the webhook, the targets (URLs and secrets from Secrets, never in the ConfigMap) and the settings to the service', () => {
    const manifests = render({ 'webhook.secret': SECRET }, [
      valuesFile({
        notifications: {
          webhook: { url: 'https://hooks.example.com/preflight', existingSecret: 'notify' },
          targets: [
            {
              name: 'platform-slack',
              type: 'slack',
              urlSecret: { name: 'notify', key: 'slack-url' },
              events: ['denied', 'stopped'],
              environments: ['production'],
              rateLimit: { perMinute: 20 },
            },
            {
              name: 'audit',
              type: 'webhook',
              url: 'https://audit.example.com/in',
              secretSecret: { name: 'notify', key: 'audit-secret' },
              events: ['waived'],
              teams: ['ADM'],
            },
            {
              name: 'alerts',
              type: 'alertmanager',
              url: 'http://alertmanager.monitoring:9093',
              events: ['denied'],
              resolveAfter: '2h',
            },
          ],
          dedupeWindow: '1m',
        },
      }),
    ]);
    const configMap = find(manifests, 'ConfigMap', 'pg-preflight-gate-notify');
    const targetsYaml = configMap.data?.['targets.yaml'] ?? '';
    expect(targetsYaml).not.toMatch(/hooks\.slack|whsec_/);
    const deployment = find(manifests, 'Deployment');
    const { container, pod } = deploymentOf(deployment);
    expect(container.volumeMounts).toContainEqual({
      name: 'notify',
      mountPath: '/etc/preflight-gate/notify',
      readOnly: true,
    });
    expect(pod.volumes).toContainEqual({ name: 'notify', configMap: { name: 'pg-preflight-gate-notify' } });
    expect(
      Object.keys(
        (deployment.spec as { template: { metadata: { annotations: object } } }).template.metadata.annotations,
      ),
    ).toContain('checksum/notify');
    // The service reads the file where the pod mounts it; here it is written to a temp dir.
    const file = join(dir, 'targets.yaml');
    writeFileSync(file, targetsYaml);
    const env = envFrom(container.env, {
      notify: { 'webhook-secret': WHSEC, 'slack-url': 'https://hooks.slack.com/services/T/B/x', 'audit-secret': WHSEC },
    });
    expect(env.NOTIFY_TARGETS_FILE).toBe('/etc/preflight-gate/notify/targets.yaml');
    const config = parseNotifyConfig({ ...env, NOTIFY_TARGETS_FILE: file });
    expect(config.targets.map((t) => [t.name, t.type, t.url, t.filter.events])).toEqual([
      ['webhook', 'webhook', 'https://hooks.example.com/preflight', ['denied']],
      ['platform-slack', 'slack', 'https://hooks.slack.com/services/T/B/x', ['denied', 'stopped']],
      ['audit', 'webhook', 'https://audit.example.com/in', ['waived']],
      ['alerts', 'alertmanager', 'http://alertmanager.monitoring:9093/', ['denied']],
    ]);
    expect(config.targets[1]).toMatchObject({
      filter: { environments: ['production'] },
      rate: { perMinute: 20, burst: 10 },
    });
    expect(config.targets[2].secret).toBeDefined();
    expect(config.targets[3].resolveAfterMs).toBe(7_200_000);
    expect(config.dedupeWindowMs).toBe(60_000);
  });

  it('refuses a webhook without the Secret of its signing key, a target without a URL, and an unknown event', () => {
    const noSecret = renderError({ 'webhook.secret': SECRET, 'notifications.webhook.url': 'https://h.example.com' });
    expect(noSecret).toContain('notifications.webhook.existingSecret names the Secret');
    const noUrl = renderError({ 'webhook.secret': SECRET }, [
      valuesFile({ notifications: { targets: [{ name: 's', type: 'slack', events: ['denied'] }] } }),
    ]);
    expect(noUrl).toContain('notifications.targets[0]: give urlSecret');
    const badEvent = renderError({ 'webhook.secret': SECRET }, [
      valuesFile({
        notifications: { targets: [{ name: 's', type: 'slack', url: 'https://x.example.com', events: ['denyed'] }] },
      }),
    ]);
    expect(badEvent).toContain('notifications');
  });
});
