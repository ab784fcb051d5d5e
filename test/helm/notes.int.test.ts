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
  writeFileSync(
    join(chart, 'templates', '_notes-under-test.tpl'),
    `{{- define "notes-under-test" -}}\n${notes}\n{{- end }}\n`,
  );
  writeFileSync(
    join(chart, 'templates', 'notes-under-test.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes-under-test\ndata:\n  notes: {{ include "notes-under-test" . | quote }}\n',
  );
});
afterAll(() => rmSync(chart, { recursive: true, force: true }));

const notesWith = (set: Record<string, string>, files: string[] = []) =>
  find(render(set, files, chart), 'ConfigMap', 'notes-under-test').data?.notes ?? '';

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
    [
      'a secret from values',
      { 'webhook.secret': 'x' },
      "kubectl -n chaos get secret pg-preflight-gate -o jsonpath='{.data.webhook-secret}' | base64 -d",
    ],
    [
      'an existing Secret',
      { 'webhook.existingSecret': 'sb', 'webhook.existingSecretKey': 'token' },
      "kubectl -n chaos get secret sb -o jsonpath='{.data.token}' | base64 -d",
    ],
    [
      'an existing Secret whose key has a dot (escaped in the JSONPath)',
      { 'webhook.existingSecret': 'sb', 'webhook.existingSecretKey': 'webhook.secret' },
      "kubectl -n chaos get secret sb -o jsonpath='{.data.webhook\\.secret}' | base64 -d",
    ],
    ['insecure', { 'webhook.insecure': 'true' }, 'WARNING: webhook.insecure=true and no secret is set'],
  ])('with %s: how to read the same secret', (_name, set, expected) => {
    expect(notesWith(set)).toContain(expected);
  });
});

describe('NOTES.txt says which policies decide', () => {
  it.each([
    ['a Redis URL', { 'webhook.secret': 'x', replicaCount: '3', 'state.redis.url': 'redis://redis:6379/0' }],
    [
      'a single replica with the Platform API',
      { 'webhook.secret': 'x', 'steadybit.url': 'https://platform.steadybit.com', 'steadybit.token': 't' },
    ],
  ])('with %s: no note', (_name, set) => {
    expect(notesWith(set)).not.toContain('NOTE:');
  });

  it('without policies of yours: says loudly that the starter policies of the image decide runs', () => {
    expect(notesWith({ 'webhook.secret': 'x' })).toContain(
      'POLICIES: none configured, so the STARTER policies built into the image decide runs',
    );
    expect(notesWith({ 'webhook.secret': 'x', 'policies.existingConfigMap': 'mine' })).not.toContain('STARTER');
    expect(notesWith({}, [ALL_OPTIONS])).not.toContain('STARTER');
  });

  it('does not crash on ingress.tls=null, and ingress.hosts=null is refused with the value to set', () => {
    expect(notesWith({ 'webhook.secret': 'x', 'ingress.enabled': 'true', 'ingress.tls': 'null' })).toContain(
      'URL:  http://preflight-gate.example.com/preflight',
    );
    expect(() => notesWith({ 'webhook.secret': 'x', 'ingress.enabled': 'true', 'ingress.hosts': 'null' })).toThrow(
      'ingress.enabled=true needs ingress.hosts',
    );
  });
});
