import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSignalsConfig } from '../../src/signals/signals-config';
import { deploymentOf, type EnvVar } from './pod-spec';
import { ALL_OPTIONS, find, helm, CHART, render, valueArgs } from './render-chart';

const SECRET = 'a-long-random-webhook-secret';

/** The container's environment as the service would see it, secrets read from `secrets`. */
function envFrom(vars: EnvVar[], secrets: Record<string, Record<string, string>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const v of vars) {
    const ref = v.valueFrom?.secretKeyRef;
    env[v.name] = ref ? secrets[ref.name]?.[ref.key] : v.value;
  }
  return env;
}

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
    const noSecret = helm([
      'template',
      'x',
      CHART,
      ...valueArgs({
        'webhook.secret': SECRET,
        'signals.alertmanager.url': 'http://am:9093',
        'signals.alertmanager.bearerTokenKey': 'token',
      }),
    ]);
    expect(noSecret.status).not.toBe(0);
    expect(noSecret.stderr).toContain('signals.alertmanager.existingSecret names the Secret holding token');
    const badUrl = helm([
      'template',
      'x',
      CHART,
      ...valueArgs({ 'webhook.secret': SECRET, 'signals.prometheus.url': 'prometheus:9090' }),
    ]);
    expect(badUrl.status).not.toBe(0);
    expect(badUrl.stderr).toContain('signals.prometheus.url');
  });
});
