import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DEFAULT_BODY_LIMIT, loadConfig } from '../../src/service/config';
import { loadPolicyDir } from '../../src/policy/loading/load-policy-dir';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';
import { deploymentOf, envOf } from './pod-spec';
import { ALL_OPTIONS, CHART, find, helm, render, renderError, valueArgs, type Manifest } from './render-chart';

const SECRET = 'a-long-random-webhook-secret';

describe('helm lint', () => {
  it.each([
    ['the default values (plus the required secret)', valueArgs({ 'webhook.secret': SECRET })],
    ['every option turned on', valueArgs({}, [ALL_OPTIONS])],
  ])('is clean with %s, also with --strict', (_name, args) => {
    const run = helm(['lint', CHART, '--strict', ...args]);
    expect({
      status: run.status,
      problems: run.stdout.split('\n').filter((l) => /\[(WARNING|ERROR)\]/.test(l)),
    }).toEqual({ status: 0, problems: [] });
  });
});

describe('helm template with the default values', () => {
  const manifests = render({ 'webhook.secret': SECRET });
  const { spec, pod, container } = deploymentOf(find(manifests, 'Deployment'));

  it('renders the Deployment, Service, Secret, ServiceAccount and the helm test Pod only (no PodDisruptionBudget: one pod)', () => {
    expect(manifests.map((m) => m.kind).sort()).toEqual(['Deployment', 'Pod', 'Secret', 'Service', 'ServiceAccount']);
  });

  it('runs 1 replica (no shared state configured) as a non-root user on a read-only root filesystem, with a writable /tmp', () => {
    expect(spec.replicas).toBe(1);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
    expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    const tmp = container.volumeMounts.find((v) => v.mountPath === '/tmp');
    expect(pod.volumes.find((v) => v.name === tmp?.name)?.emptyDir).toBeDefined();
    expect(container.resources.requests).toBeDefined();
  });

  it("sends the webhook secret into the container as WEBHOOK_SECRET, from the chart's Secret", () => {
    const ref = envOf(container, 'WEBHOOK_SECRET')?.valueFrom?.secretKeyRef;
    const secret = find(manifests, 'Secret', ref?.name);
    expect(Buffer.from(secret.data?.[ref?.key ?? ''] ?? '', 'base64').toString('utf8')).toBe(SECRET);
  });

  it('probes /healthz (liveness) and /readyz (readiness) on the port the service listens on, and the app answers both', async () => {
    const port = container.ports.find((p) => p.name === container.livenessProbe.httpGet.port);
    expect(port?.containerPort).toBe(Number(envOf(container, 'PORT')?.value));
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: port?.name });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: port?.name });
    const { app } = testApp(
      bundleFrom({ 'p.yaml': 'kind: Policy\nname: p\nrules:\n  - environments:\n      blocked: [x]\n' }),
    );
    for (const path of ['/healthz', '/readyz']) expect((await request(app).get(path)).status).toBe(200);
  });

  it('terminates gracefully: the grace period covers the preStop sleep and the shutdown timeout', () => {
    const sleep = Number(container.lifecycle.preStop.exec.command[1]);
    const shutdownSeconds = Number(envOf(container, 'SHUTDOWN_TIMEOUT_MS')?.value) / 1000;
    expect(container.lifecycle.preStop.exec.command[0]).toBe('sleep');
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(sleep + shutdownSeconds);
  });

  it('writes no decision archive unless enabled; enabled without a claim, to an emptyDir of the size limit', () => {
    expect(envOf(container, 'DECISION_ARCHIVE')).toBeUndefined();
    const enabled = deploymentOf(
      find(render({ 'webhook.secret': SECRET, 'decisionArchive.enabled': 'true' }), 'Deployment'),
    );
    expect(envOf(enabled.container, 'DECISION_ARCHIVE')?.value).toBe('/var/lib/preflight-gate/decisions/');
    expect(enabled.pod.volumes.find((v) => v.name === 'decision-archive')).toEqual({
      name: 'decision-archive',
      emptyDir: { sizeLimit: '2Gi' },
    });
  });

  it('accepts the bodies the service accepts by default (BODY_LIMIT), with the V8 heap bounded well below the memory limit', () => {
    expect(envOf(container, 'BODY_LIMIT')?.value).toBe(DEFAULT_BODY_LIMIT);
    const heapMb = Number(/^--max-old-space-size=(\d+)$/.exec(envOf(container, 'NODE_OPTIONS')?.value ?? '')?.[1]);
    expect(container.resources.limits?.memory).toBe('256Mi');
    expect(heapMb).toBeLessThanOrEqual(256 * 0.65);
  });

  it('uses the policies built into the image (no POLICY_DIR, no policies volume)', () => {
    expect(envOf(container, 'POLICY_DIR')).toBeUndefined();
    expect(pod.volumes.map((v) => v.name)).toEqual(['tmp']);
  });

  it('routes the Service to the named container port', () => {
    expect((find(manifests, 'Service').spec as { ports: Array<{ targetPort: string }> }).ports[0].targetPort).toBe(
      'http',
    );
  });
});

describe('helm template with every option turned on', () => {
  const manifests = render({}, [ALL_OPTIONS]);
  const { spec, pod, container } = deploymentOf(find(manifests, 'Deployment'));

  it('renders every optional object', () => {
    expect([...new Set(manifests.map((m) => m.kind))].sort()).toEqual([
      'ConfigMap',
      'Deployment',
      'HorizontalPodAutoscaler',
      'Ingress',
      'NetworkPolicy',
      'Pod',
      'PodDisruptionBudget',
      'PrometheusRule',
      'Secret',
      'Service',
      'ServiceAccount',
      'ServiceMonitor',
    ]);
  });

  it('mounts the policies ConfigMap at the POLICY_DIR the container gets, and those policies load', () => {
    const policyDir = envOf(container, 'POLICY_DIR')?.value;
    const mount = container.volumeMounts.find((v) => v.mountPath === policyDir);
    const configMap = find(manifests, 'ConfigMap', pod.volumes.find((v) => v.name === mount?.name)?.configMap?.name);
    expect(Object.keys(configMap.data ?? {}).sort()).toEqual(['blocked-environments.yaml', 'environment-aliases.yaml']);
    const dir = mkdtempSync(join(tmpdir(), 'chart-policies-'));
    try {
      for (const [file, text] of Object.entries(configMap.data ?? {})) writeFileSync(join(dir, file), text);
      const loaded = loadPolicyDir(dir);
      expect(loaded.ok && loaded.bundle.policies.map((p) => p.name)).toEqual(['blocked-environments']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rolls the pods when the policies change (checksum annotation)', () => {
    const checksum = (ms: Manifest[]) =>
      deploymentOf(find(ms, 'Deployment')).spec.template.metadata.annotations?.['checksum/policies'];
    const changed = render(
      { 'policies.files.extra\\.yaml': 'kind: Policy\nname: extra\nrules:\n  - environments:\n      blocked: [x]\n' },
      [ALL_OPTIONS],
    );
    expect(checksum(manifests)).toMatch(/^[0-9a-f]{64}$/);
    expect(checksum(changed)).not.toBe(checksum(manifests));
  });

  it("leaves the replica count to the HPA and spreads pods with the pods' own labels", () => {
    expect(spec.replicas).toBeUndefined();
    expect(find(manifests, 'HorizontalPodAutoscaler').spec).toMatchObject({ minReplicas: 2, maxReplicas: 8 });
    for (const c of pod.topologySpreadConstraints ?? [])
      expect(spec.template.metadata.labels).toMatchObject(c.labelSelector.matchLabels);
    expect(pod.topologySpreadConstraints?.map((c) => c.topologyKey)).toEqual([
      'kubernetes.io/hostname',
      'topology.kubernetes.io/zone',
    ]);
  });

  it('passes the Redis URL as REDIS_URL from a Secret and the state and audit settings as env', () => {
    const ref = envOf(container, 'REDIS_URL')?.valueFrom?.secretKeyRef;
    expect(Buffer.from(find(manifests, 'Secret', ref?.name).data?.[ref?.key ?? ''] ?? '', 'base64').toString()).toBe(
      'redis://redis-master.redis.svc.cluster.local:6379/0',
    );
    expect(
      Object.fromEntries(
        [
          'STATE_UNAVAILABLE',
          'REDIS_KEY_PREFIX',
          'AUDIT_LOG',
          'AUDIT_LOG_LEVEL',
          'AUDIT_REDACT_ATTRIBUTES',
          'EMERGENCY_STOP_POLICY',
        ].map((n) => [n, envOf(container, n)?.value]),
      ),
    ).toEqual({
      STATE_UNAVAILABLE: 'deny',
      REDIS_KEY_PREFIX: 'team-a:',
      AUDIT_LOG: '/var/log/preflight-gate/audit.log',
      AUDIT_LOG_LEVEL: 'warn',
      AUDIT_REDACT_ATTRIBUTES: 'k8s.namespace,host.hostname',
      EMERGENCY_STOP_POLICY: 'enforce',
    });
  });

  it('writes the decision archive to its volume: one file per pod in the mounted directory, settings as env', () => {
    expect(
      Object.fromEntries(
        [
          'DECISION_ARCHIVE',
          'DECISION_ARCHIVE_MAX_BYTES',
          'DECISION_ARCHIVE_MAX_AGE',
          'DECISION_ARCHIVE_MAX_FILES',
          'DECISION_ARCHIVE_MASK_ATTRIBUTES',
        ].map((n) => [n, envOf(container, n)?.value]),
      ),
    ).toEqual({
      DECISION_ARCHIVE: '/var/lib/preflight-gate/decisions/',
      DECISION_ARCHIVE_MAX_BYTES: '32mb',
      DECISION_ARCHIVE_MAX_AGE: '30m',
      DECISION_ARCHIVE_MAX_FILES: '48',
      DECISION_ARCHIVE_MASK_ATTRIBUTES: 'aws.account',
    });
    const mount = container.volumeMounts.find((v) => v.name === 'decision-archive');
    expect(mount?.mountPath).toBe('/var/lib/preflight-gate/decisions');
    expect(pod.volumes.find((v) => v.name === 'decision-archive')).toEqual({
      name: 'decision-archive',
      persistentVolumeClaim: { claimName: 'preflight-gate-decisions' },
    });
    // The service reads exactly these settings.
    const env = Object.fromEntries(
      container.env.filter((e) => e.value !== undefined).map((e) => [e.name, e.value as string]),
    );
    expect(loadConfig(env).archive).toMatchObject({
      kind: 'file',
      maxBytes: 32 * 1024 ** 2,
      maxAgeMs: 1_800_000,
      maxFiles: 48,
      maskAttributes: ['aws.account'],
    });
  });

  it('exposes only /preflight and /events through the Ingress: metrics and probes stay inside', () => {
    const rules = (find(manifests, 'Ingress').spec as { rules: Array<{ http: { paths: Array<{ path: string }> } }> })
      .rules;
    expect(rules.flatMap((r) => r.http.paths.map((p) => p.path))).toEqual(['/preflight', '/events']);
  });

  it('scrapes /metrics on the named port and ships the Grafana dashboard file with its sidecar label', () => {
    expect(
      (find(manifests, 'ServiceMonitor').spec as { endpoints: Array<{ port: string; path: string }> }).endpoints[0],
    ).toMatchObject({ port: 'http', path: '/metrics' });
    const dashboard = find(manifests, 'ConfigMap', 'pg-preflight-gate-dashboard');
    expect(dashboard.metadata).toMatchObject({ namespace: 'monitoring', labels: { grafana_dashboard: '1' } });
    expect(JSON.parse(dashboard.data?.['preflight-gate.json'] ?? '')).toEqual(
      JSON.parse(readFileSync(join(CHART, 'dashboards', 'preflight-gate.json'), 'utf8')),
    );
  });
});

describe('existing Secret and ConfigMap', () => {
  const manifests = render({
    'webhook.existingSecret': 'steadybit-webhook',
    'webhook.existingSecretKey': 'secret',
    'policies.existingConfigMap': 'platform-policies',
  });
  const { spec, pod, container } = deploymentOf(find(manifests, 'Deployment'));

  it('reads WEBHOOK_SECRET from the named Secret and renders no Secret of its own', () => {
    expect(envOf(container, 'WEBHOOK_SECRET')?.valueFrom?.secretKeyRef).toEqual({
      name: 'steadybit-webhook',
      key: 'secret',
    });
    expect(manifests.filter((m) => m.kind === 'Secret')).toEqual([]);
  });

  it('mounts the named ConfigMap at POLICY_DIR (hot reload follows its changes; no checksum)', () => {
    const mount = container.volumeMounts.find((v) => v.mountPath === envOf(container, 'POLICY_DIR')?.value);
    expect(pod.volumes.find((v) => v.name === mount?.name)?.configMap?.name).toBe('platform-policies');
    expect(envOf(container, 'POLICY_WATCH')?.value).toBe('true');
    expect(spec.template.metadata.annotations?.['checksum/policies']).toBeUndefined();
    expect(manifests.filter((m) => m.kind === 'ConfigMap')).toEqual([]);
  });
});

describe('values the chart refuses, with the value to fix', () => {
  it.each([
    ['no secret and not insecure', {}, 'webhook secret required: set webhook.secret (or webhook.existingSecret)'],
    [
      'both a secret and an existing Secret',
      { 'webhook.secret': 'x', 'webhook.existingSecret': 'y' },
      'set either webhook.secret or webhook.existingSecret, not both',
    ],
    [
      'a grace period shorter than preStop + shutdown',
      { 'webhook.secret': 'x', terminationGracePeriodSeconds: '20' },
      'terminationGracePeriodSeconds (20) must be longer than preStopSleepSeconds + config.shutdownTimeoutSeconds (30)',
    ],
    [
      'a policy file name that is not *.yaml',
      { 'webhook.secret': 'x', 'policies.files.notes\\.txt': 'x' },
      'policies.files',
    ],
    ['an unknown audit level (values.schema.json)', { 'webhook.secret': 'x', 'audit.level': 'loud' }, 'audit.level'],
    [
      'a decision archive size that is not one (values.schema.json)',
      { 'webhook.secret': 'x', 'decisionArchive.maxBytes': 'huge' },
      'decisionArchive.maxBytes',
    ],
    [
      'STATE_UNAVAILABLE other than deny/allow (values.schema.json)',
      { 'webhook.secret': 'x', 'state.unavailable': 'maybe' },
      'state.unavailable',
    ],
    [
      'two Redis topologies (the service refuses them; the chart dropped one)',
      { 'webhook.secret': 'x', 'state.redis.url': 'redis://r:6379', 'state.redis.clusterNodes': 'c0:6379' },
      'set one Redis topology, not state.redis.url and state.redis.clusterNodes',
    ],
    [
      'Sentinel and Cluster at once',
      {
        'webhook.secret': 'x',
        'state.redis.sentinels': 's0:26379',
        'state.redis.sentinelName': 'gate',
        'state.redis.clusterNodes': 'c0:6379',
      },
      'set one Redis topology, not state.redis.sentinels and state.redis.clusterNodes',
    ],
    [
      'a signal source with a bearer token and basic auth (the service refuses both)',
      {
        'webhook.secret': 'x',
        'signals.alertmanager.url': 'http://am:9093',
        'signals.alertmanager.existingSecret': 's',
        'signals.alertmanager.bearerTokenKey': 't',
        'signals.alertmanager.usernameKey': 'u',
        'signals.alertmanager.passwordKey': 'p',
      },
      'signals.alertmanager: give a bearer token (bearerTokenKey) or basic auth (usernameKey and passwordKey), not both',
    ],
    [
      'a basic-auth username without its password',
      {
        'webhook.secret': 'x',
        'signals.prometheus.url': 'http://prom:9090',
        'signals.prometheus.existingSecret': 's',
        'signals.prometheus.usernameKey': 'u',
      },
      'signals.prometheus.usernameKey and signals.prometheus.passwordKey go together',
    ],
    [
      'signal credentials without a url (they would be dropped)',
      { 'webhook.secret': 'x', 'signals.prometheus.existingSecret': 's', 'signals.prometheus.bearerTokenKey': 't' },
      'signals.prometheus has credentials or a CA file but no url',
    ],
  ])('%s', (_name, set, message) => {
    expect(renderError(set)).toContain(message);
  });

  it('renders without a secret only when insecure is set explicitly, and then sets no WEBHOOK_SECRET', () => {
    const { container } = deploymentOf(find(render({ 'webhook.insecure': 'true' }), 'Deployment'));
    expect(envOf(container, 'WEBHOOK_SECRET')).toBeUndefined();
  });
});
