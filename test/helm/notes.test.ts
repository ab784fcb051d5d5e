import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_OPTIONS, CHART, find, render } from './render-chart';

/**
 * `helm template` does not print NOTES.txt (and `helm install --dry-run` needs a cluster), so a
 * copy of the chart renders the same text into a ConfigMap through a named template.
 */
let chart: string;
beforeAll(() => {
  chart = mkdtempSync(join(tmpdir(), 'chart-notes-'));
  cpSync(CHART, chart, { recursive: true });
  const notes = readFileSync(join(CHART, 'templates', 'NOTES.txt'), 'utf8');
  writeFileSync(join(chart, 'templates', '_notes-under-test.tpl'), `{{- define "notes-under-test" -}}\n${notes}\n{{- end }}\n`);
  writeFileSync(join(chart, 'templates', 'notes-under-test.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes-under-test\ndata:\n  notes: {{ include "notes-under-test" . | quote }}\n');
});
afterAll(() => rmSync(chart, { recursive: true, force: true }));

const notesWith = (set: Record<string, string>, files: string[] = []) => find(render(set, files, chart), 'ConfigMap', 'notes-under-test').data?.notes ?? '';

describe('NOTES.txt tells which URL to register in Steadybit and how to set the secret there', () => {
  it('with the Ingress and TLS: the https URL of /preflight and of /events', () => {
    const notes = notesWith({}, [ALL_OPTIONS]);
    expect(notes).toContain('URL:  https://preflight.example.com/preflight');
    expect(notes).toContain('URL:  https://preflight.example.com/events');
  });

  it('without an Ingress: the in-cluster service URL, and what SaaS users must do instead', () => {
    const notes = notesWith({ 'webhook.secret': 'x' });
    expect(notes).toContain('URL:  http://pg-preflight-gate.chaos.svc.cluster.local:80/preflight');
    expect(notes).toContain('For Steadybit\n     SaaS enable the ingress');
  });

  it.each([
    ['a secret from values', { 'webhook.secret': 'x' }, "kubectl -n chaos get secret pg-preflight-gate -o jsonpath='{.data.webhook-secret}' | base64 -d"],
    ['an existing Secret', { 'webhook.existingSecret': 'sb', 'webhook.existingSecretKey': 'token' }, "kubectl -n chaos get secret sb -o jsonpath='{.data.token}' | base64 -d"],
    ['insecure', { 'webhook.insecure': 'true' }, 'WARNING: webhook.insecure=true and no secret is set'],
  ])('with %s: how to read the same secret', (_name, set, expected) => {
    expect(notesWith(set)).toContain(expected);
  });
});

describe('NOTES.txt warns loudly when several replicas keep their state each (no Redis), and renders anyway', () => {
  const WARNING = 'and no Redis: every replica keeps its own state.';
  it.each([
    ['the default 2 replicas', { 'webhook.secret': 'x' }, 'WARNING: 2 replicas and no Redis'],
    ['autoscaling, even from 1 replica', { 'webhook.secret': 'x', replicaCount: '1', 'autoscaling.enabled': 'true' }, 'WARNING: up to 6 replicas (autoscaling) and no Redis'],
  ])('with %s: says what goes wrong and how to fix it', (_name, set, headline) => {
    const notes = notesWith(set);
    expect(notes).toContain(headline);
    expect(notes).toContain('lets the run start while the emergency stop is engaged');
    expect(notes).toContain('helm upgrade pg <chart> -n chaos --reuse-values --set state.redis.url=redis://<host>:6379/0');
    expect(notes).toContain('--set state.redis.existingSecret=<secret> --set state.redis.existingSecretKey=<key>');
  });

  it.each([
    ['a Redis URL', { 'webhook.secret': 'x', 'state.redis.url': 'redis://redis:6379/0' }],
    ['Redis from an existing Secret', { 'webhook.secret': 'x', 'state.redis.existingSecret': 'redis' }],
    ['REDIS_URL in extraEnv', { 'webhook.secret': 'x', 'extraEnv[0].name': 'REDIS_URL', 'extraEnv[0].value': 'redis://redis:6379/0' }],
    ['a single replica', { 'webhook.secret': 'x', replicaCount: '1' }],
    ['autoscaling to at most 1 replica', { 'webhook.secret': 'x', replicaCount: '1', 'autoscaling.enabled': 'true', 'autoscaling.minReplicas': '1', 'autoscaling.maxReplicas': '1' }],
  ])('with %s: no warning', (_name, set) => {
    const notes = notesWith(set);
    expect(notes).toContain('URL:  http://pg-preflight-gate.chaos.svc.cluster.local:80/events');
    expect(notes).not.toContain(WARNING);
  });
});
