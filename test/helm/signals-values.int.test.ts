import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSignalsConfig } from '../../src/signals/signals-config';
import { deploymentOf, envFrom } from './pod-spec';
import { ALL_OPTIONS, CHART, find, render, renderError } from './render-chart';

const SOURCES_VALUES = join(CHART, 'ci', 'signal-sources-values.yaml');
const MOUNT = '/var/run/secrets/preflight-gate/signals';

const SECRET = 'a-long-random-webhook-secret';

describe('chart values for live signals (docs/signals.md)', () => {
  it('sets no source by default, and the service reads the defaults', () => {
    const { container } = deploymentOf(find(render({ 'webhook.secret': SECRET }), 'Deployment'));
    const config = parseSignalsConfig(envFrom(container.env, {}));
    expect(config).toEqual({ sources: [], cacheTtlMs: 10000, timeoutMs: 5000 });
  });

  it('passes URLs, credentials from the existing Secret, the CA file and the timings to the service', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chart-signals-'));
    try {
      // The CA is a file the operator mounts (extraVolumes); the all-options example leaves it out since
      // the chart tests also start the service with that example's environment.
      const manifests = render(
        { 'webhook.secret': SECRET, 'signals.prometheus.caFile': '/etc/preflight-gate/ca/ca.pem' },
        [ALL_OPTIONS],
      );
      const { container } = deploymentOf(find(manifests, 'Deployment'));
      const env = envFrom(container.env, { 'thanos-credentials': { username: 'reader', password: 'pw' } });
      // In the cluster the CA is a mounted file; here a temp file stands in for it.
      expect(env.PROMETHEUS_CA_FILE).toBe('/etc/preflight-gate/ca/ca.pem');
      writeFileSync(join(dir, 'ca.pem'), 'PEM');
      const config = parseSignalsConfig({ ...env, PROMETHEUS_CA_FILE: join(dir, 'ca.pem') });
      expect(config).toEqual({
        sources: [
          {
            kind: 'alertmanager',
            name: 'default',
            url: 'http://alertmanager-operated.monitoring:9093',
            auth: undefined,
            ca: undefined,
          },
          {
            kind: 'prometheus',
            name: 'default',
            url: 'https://thanos-query.monitoring:9090',
            auth: { type: 'basic', username: 'reader', password: 'pw' },
            ca: 'PEM',
          },
        ],
        cacheTtlMs: 5000,
        timeoutMs: 3000,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a credential key without the Secret that holds it, and a URL that is not http(s)', () => {
    const noSecret = renderError({
      'webhook.secret': SECRET,
      'signals.alertmanager.url': 'http://am:9093',
      'signals.alertmanager.bearerTokenKey': 'token',
    });
    expect(noSecret).toContain('signals.alertmanager.existingSecret names the Secret holding token');
    const badUrl = renderError({ 'webhook.secret': SECRET, 'signals.prometheus.url': 'prometheus:9090' });
    expect(badUrl).toContain('signals.prometheus.url');
  });

  it('writes signals.sources as SIGNAL_SOURCES_FILE with json and calendar sources, credentials from mounted Secrets', () => {
    const manifests = render({}, [SOURCES_VALUES]);
    const { container, pod, spec } = deploymentOf(find(manifests, 'Deployment'));
    const env = envFrom(container.env, {});
    expect(env.SIGNAL_SOURCES_FILE).toBe('/etc/preflight-gate/signals/sources.yaml');
    const mounts = container.volumeMounts ?? [];
    expect(mounts).toEqual(
      expect.arrayContaining([
        { name: 'signals', mountPath: '/etc/preflight-gate/signals', readOnly: true },
        { name: 'signal-secret-0', mountPath: `${MOUNT}/pagerduty`, readOnly: true },
        { name: 'signal-secret-1', mountPath: `${MOUNT}/argocd`, readOnly: true },
      ]),
    );
    expect(pod.volumes).toEqual(
      expect.arrayContaining([
        { name: 'signals', configMap: { name: 'pg-preflight-gate-signals' } },
        { name: 'signal-secret-0', secret: { secretName: 'pagerduty' } },
        { name: 'signal-secret-1', secret: { secretName: 'argocd' } },
      ]),
    );
    expect(spec.template.metadata.annotations).toHaveProperty('checksum/signals');
    // The service reads the rendered file as written; the Secrets' files stand in a temp dir for their mounts.
    const text = (find(manifests, 'ConfigMap', 'pg-preflight-gate-signals') as { data: Record<string, string> }).data[
      'sources.yaml'
    ];
    expect(text).not.toMatch(/Token token=|bearerToken:|password:/);
    const dir = mkdtempSync(join(tmpdir(), 'chart-signal-sources-'));
    try {
      for (const [secret, file, value] of [
        ['pagerduty', 'header', 'Token token=pd\n'],
        ['argocd', 'token', 'argo\n'],
        ['argocd', 'ca.crt', 'PEM'],
      ]) {
        mkdirSync(join(dir, secret), { recursive: true });
        writeFileSync(join(dir, secret, file), value);
      }
      writeFileSync(join(dir, 'sources.yaml'), text.replaceAll(MOUNT, dir));
      const config = parseSignalsConfig({ ...env, SIGNAL_SOURCES_FILE: join(dir, 'sources.yaml') });
      // toYaml writes the names in alphabetical order.
      expect(config.sources).toEqual([
        {
          kind: 'prometheus',
          name: 'default',
          url: 'http://prometheus-operated.monitoring:9090',
          auth: undefined,
          ca: undefined,
        },
        {
          kind: 'json',
          name: 'argocd',
          url: 'https://argocd-server.argocd.svc',
          auth: { type: 'bearer', token: 'argo' },
          ca: 'PEM',
        },
        {
          kind: 'json',
          name: 'change-calendar',
          url: 'https://calendar.example.com/shared/platform',
          auth: undefined,
          ca: undefined,
          calendar: { timeZone: 'Europe/Berlin' },
        },
        {
          kind: 'json',
          name: 'pagerduty',
          url: 'https://api.pagerduty.com',
          auth: { type: 'header', name: 'Authorization', value: 'Token token=pd' },
          ca: undefined,
        },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('docs/helm.md shows the sources of helm/ci/signal-sources-values.yaml', () => {
    const doc = readFileSync(join(CHART, '..', 'docs', 'helm.md'), 'utf8');
    const shown = /### Named sources[\s\S]*?```yaml\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const ci = parse(readFileSync(SOURCES_VALUES, 'utf8')) as { signals: { sources: { json: object } } };
    expect(parse(shown)).toEqual({
      signals: { sources: { json: ci.signals.sources.json }, sourceSecrets: ['pagerduty', 'argocd'] },
    });
  });

  it.each([
    [
      'a token written inline (a ConfigMap is no place for it)',
      { 'signals.sources.json.pd.url': 'https://api.pagerduty.com', 'signals.sources.json.pd.bearerToken': 't' },
      'bearerToken',
    ],
    [
      'signals.sources with signals.sourcesFile',
      { 'signals.sources.json.pd.url': 'https://api.pagerduty.com', 'signals.sourcesFile': '/etc/x.yaml' },
      'set signals.sources (the chart writes SIGNAL_SOURCES_FILE) or signals.sourcesFile',
    ],
    ['sourceSecrets without sources', { 'signals.sourceSecrets[0]': 'pagerduty' }, 'signals.sourceSecrets are mounted'],
    [
      'an unknown format',
      { 'signals.sources.json.cal.url': 'https://cal.example.com', 'signals.sources.json.cal.format': 'xml' },
      'format',
    ],
  ])('refuses %s', (_name, set, message) => {
    expect(renderError({ 'webhook.secret': SECRET, ...set })).toContain(message);
  });
});
