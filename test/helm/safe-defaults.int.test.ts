import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/server-process';
import { deploymentOf } from './pod-spec';
import { CHART, find, helm, render, renderError, type Manifest } from './render-chart';

/** With any values it accepts, the chart runs nothing that fails open; what it refuses, it says how to fix. */
const CI_VALUES = readdirSync(join(CHART, 'ci'))
  .filter((f) => f.endsWith('-values.yaml'))
  .sort();
const SECRET = { 'webhook.secret': 'x' };
const REDIS = { ...SECRET, 'state.redis.url': 'redis://redis:6379/0' };

/** Every path under `value` whose value is null (a bare `annotations:` renders as null). */
function nullPaths(value: unknown, path = ''): string[] {
  if (value === null) return [path];
  if (typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => nullPaths(v, `${path}.${k}`));
}

const pdbOf = (manifests: Manifest[]) => manifests.find((m) => m.kind === 'PodDisruptionBudget');

describe('the values file of each mode in ci/', () => {
  it('has one per mode', () => {
    expect(CI_VALUES).toEqual([
      'all-options-values.yaml',
      'autoscaling-values.yaml',
      'default-values.yaml',
      'existing-objects-values.yaml',
      'insecure-values.yaml',
      'platform-api-values.yaml',
      'redis-values.yaml',
      'signal-sources-values.yaml',
    ]);
  });

  it.each(CI_VALUES)('%s: helm lint --strict is clean and nothing renders as null', (file) => {
    const run = helm(['lint', CHART, '--strict', '-f', join(CHART, 'ci', file)]);
    expect({
      status: run.status,
      problems: run.stdout.split('\n').filter((l) => /\[(WARNING|ERROR)\]/.test(l)),
    }).toEqual({ status: 0, problems: [] });
    const manifests = render({}, [join(CHART, 'ci', file)]);
    expect(manifests.flatMap((m) => nullPaths(m, `${m.kind}/${m.metadata.name}`))).toEqual([]);
  });
});

describe('replicas and shared state', () => {
  const PLATFORM = { 'steadybit.url': 'https://platform.steadybit.com', 'steadybit.token': 't' };
  it.each([
    ['replicaCount=2', { ...SECRET, replicaCount: '2' }, 'replicaCount=2 without shared state'],
    ['autoscaling', { ...SECRET, 'autoscaling.enabled': 'true' }, 'autoscaling up to 6 replicas without shared state'],
    // Issue 49: the platform is read every syncIntervalSeconds; cool-downs, quotas and exception uses stay per replica.
    [
      'replicaCount=2 with the Platform API only',
      { ...SECRET, ...PLATFORM, replicaCount: '2' },
      'replicaCount=2 without shared state',
    ],
    [
      'autoscaling with the Platform API only',
      { ...SECRET, ...PLATFORM, 'autoscaling.enabled': 'true' },
      'autoscaling up to 6 replicas without shared state',
    ],
    // The service treats an empty REDIS_* as unset (in-memory state), so it shares nothing.
    ...['REDIS_URL', 'REDIS_SENTINELS', 'REDIS_CLUSTER_NODES'].map((name): [string, Record<string, string>, string] => [
      `${name} in extraEnv with an empty value`,
      { ...SECRET, 'extraEnv[0].name': name, 'extraEnv[0].value': '', replicaCount: '2' },
      'replicaCount=2 without shared state',
    ]),
    [
      'REDIS_URL in extraEnv without a value',
      { ...SECRET, 'extraEnv[0].name': 'REDIS_URL', replicaCount: '2' },
      'replicaCount=2 without shared state',
    ],
    [
      'a Platform API URL without a token',
      { ...SECRET, replicaCount: '2', 'steadybit.url': 'https://platform.steadybit.com' },
      'steadybit.url is set but no access token',
    ],
  ])('refuses %s without Redis, naming the values to set', (_name, set, message) => {
    const refused = renderError(set);
    expect(refused).toContain(message);
    if (message.includes('shared state')) {
      expect(refused).toContain('a one-use exception waives a run on each');
      expect(refused).toContain(
        'Set state.redis.url (or state.redis.existingSecret, state.redis.sentinels, state.redis.clusterNodes); steadybit.url does not share them',
      );
      expect(refused).toContain('Or run one replica: replicaCount=1, autoscaling.enabled=false');
    }
  });

  it.each([
    ['Redis', { ...REDIS, replicaCount: '3' }, 3],
    ['Redis from an existing Secret', { ...SECRET, 'state.redis.existingSecret': 'redis', replicaCount: '3' }, 3],
    ['Redis and the Platform API', { ...REDIS, ...PLATFORM, replicaCount: '2' }, 2],
    [
      'REDIS_URL in extraEnv',
      { ...SECRET, 'extraEnv[0].name': 'REDIS_URL', 'extraEnv[0].value': 'redis://r:6379', replicaCount: '2' },
      2,
    ],
    [
      'REDIS_SENTINELS in extraEnv',
      { ...SECRET, 'extraEnv[0].name': 'REDIS_SENTINELS', 'extraEnv[0].value': 's0:26379', replicaCount: '2' },
      2,
    ],
    [
      'REDIS_URL in extraEnv from a Secret (valueFrom)',
      {
        ...SECRET,
        'extraEnv[0].name': 'REDIS_URL',
        'extraEnv[0].valueFrom.secretKeyRef.name': 'redis',
        'extraEnv[0].valueFrom.secretKeyRef.key': 'url',
        replicaCount: '2',
      },
      2,
    ],
    ['one replica with the Platform API', { ...SECRET, ...PLATFORM }, 1],
  ])('runs with %s', (_name, set, replicas) => {
    expect(deploymentOf(find(render(set), 'Deployment')).spec.replicas).toBe(replicas);
  });

  it('refuses an HPA whose maxReplicas is below minReplicas', () => {
    const refused = renderError({
      ...REDIS,
      'autoscaling.enabled': 'true',
      'autoscaling.minReplicas': '4',
      'autoscaling.maxReplicas': '3',
    });
    expect(refused).toContain('autoscaling.maxReplicas (3) must be at least autoscaling.minReplicas (4)');
  });
});

describe('the PodDisruptionBudget exists only when a node drain can still evict a pod', () => {
  it.each([
    ['1 replica (the default)', SECRET, undefined],
    ['2 replicas, minAvailable 1', { ...REDIS, replicaCount: '2' }, 1],
    ['2 replicas, minAvailable 2', { ...REDIS, replicaCount: '2', 'podDisruptionBudget.minAvailable': '2' }, undefined],
    ['3 replicas, minAvailable 2', { ...REDIS, replicaCount: '3', 'podDisruptionBudget.minAvailable': '2' }, 2],
    ['2 replicas, minAvailable 50%', { ...REDIS, replicaCount: '2', 'podDisruptionBudget.minAvailable': '50%' }, '50%'],
    [
      '2 replicas, minAvailable 51%',
      { ...REDIS, replicaCount: '2', 'podDisruptionBudget.minAvailable': '51%' },
      undefined,
    ],
    ['an HPA from 1 pod', { ...REDIS, 'autoscaling.enabled': 'true', 'autoscaling.minReplicas': '1' }, undefined],
    ['an HPA from 2 pods', { ...REDIS, 'autoscaling.enabled': 'true' }, 1],
    ['disabled', { ...REDIS, replicaCount: '3', 'podDisruptionBudget.enabled': 'false' }, undefined],
  ])('%s', (_name, set, minAvailable) => {
    expect((pdbOf(render(set))?.spec as { minAvailable?: unknown } | undefined)?.minAvailable).toBe(minAvailable);
  });
});

describe('values.schema.json and the templates refuse', () => {
  it.each([
    ['runAsUser 0 for the pod', { ...SECRET, 'podSecurityContext.runAsUser': '0' }, 'runAsUser'],
    ['runAsUser 0 for the container', { ...SECRET, 'securityContext.runAsUser': '0' }, 'runAsUser'],
    ['runAsNonRoot false', { ...SECRET, 'podSecurityContext.runAsNonRoot': 'false' }, 'runAsNonRoot'],
    [
      'an ingress without hosts',
      { ...SECRET, 'ingress.enabled': 'true', 'ingress.hosts': 'null' },
      'ingress.enabled=true needs ingress.hosts',
    ],
    ['a ServiceMonitor scheme other than http/https', { ...SECRET, 'metrics.serviceMonitor.scheme': 'ftp' }, 'scheme'],
  ])('%s', (_name, set, message) => {
    expect(renderError(set)).toContain(message);
  });
});

describe('Kyverno/Gatekeeper-style options', () => {
  const manifests = render({}, [join(CHART, 'ci', 'all-options-values.yaml')]);

  it('sets priorityClassName on the pods', () => {
    expect((deploymentOf(find(manifests, 'Deployment')).pod as { priorityClassName?: string }).priorityClassName).toBe(
      'preflight-gate-critical',
    );
    expect(
      (deploymentOf(find(render(SECRET), 'Deployment')).pod as { priorityClassName?: string }).priorityClassName,
    ).toBeUndefined();
  });

  it('passes the ServiceMonitor scheme, TLS config, relabelings and metric relabelings through', () => {
    const endpoint = (find(manifests, 'ServiceMonitor').spec as { endpoints: Array<Record<string, unknown>> })
      .endpoints[0];
    expect(endpoint).toMatchObject({
      scheme: 'https',
      tlsConfig: { serverName: 'preflight-gate.chaos.svc' },
      relabelings: [{ targetLabel: 'cluster', replacement: 'prod-eu-1' }],
      metricRelabelings: [{ action: 'drop', regex: 'nodejs_.*' }],
    });
  });

  it('has a `helm test` pod: the same image, non-root, asking the Service for /readyz', () => {
    const pod = find(manifests, 'Pod');
    const spec = pod.spec as {
      containers: Array<{ image: string; command: string[]; securityContext: object }>;
      securityContext: { runAsNonRoot: boolean };
    };
    expect(pod.metadata.annotations?.['helm.sh/hook']).toBe('test');
    expect(spec.containers[0].image).toBe(deploymentOf(find(manifests, 'Deployment')).container.image);
    expect(spec.securityContext.runAsNonRoot).toBe(true);
    expect(spec.containers[0].command.slice(-1)[0]).toBe('http://pg-preflight-gate.chaos.svc:8080/readyz');
    expect(render({ ...SECRET, 'helmTest.enabled': 'false' }).some((m) => m.kind === 'Pod')).toBe(false);
  });

  it("the helm test pod's script exits 0 on a 200 from /readyz and 1 otherwise", async () => {
    const script = (find(manifests, 'Pod').spec as { containers: Array<{ command: string[] }> }).containers[0]
      .command[2];
    for (const status of [200, 503]) {
      const server = createServer((_req, res) => {
        res.writeHead(status);
        res.end('{}');
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const port = (server.address() as { port: number }).port;
      const run = await new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, ['-e', script, `http://127.0.0.1:${port}/readyz`], { stdio: 'ignore' });
        child.on('exit', resolve);
      });
      server.close();
      expect([status, run]).toEqual([status, status === 200 ? 0 : 1]);
    }
  });
});

describe('the chart README', () => {
  it('lists every value, generated from the values.yaml comments, and is up to date (npm run chart:readme)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chart-readme-'));
    try {
      cpSync(join(CHART, 'README.md'), join(dir, 'README.md'));
      const generator = join(ROOT, 'node_modules', '@bitnami', 'readme-generator-for-helm', 'bin', 'index.js');
      const run = spawnSync(
        process.execPath,
        [generator, '--values', join(CHART, 'values.yaml'), '--readme', join(dir, 'README.md')],
        { encoding: 'utf8' },
      );
      expect(run.stderr).not.toContain('ERROR');
      expect(run.status).toBe(0);
      expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe(readFileSync(join(CHART, 'README.md'), 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
