import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Step } from '../../src/payload/types';
import { signedPost } from '../helpers/signed-post';
import { preflightPayload } from '../helpers/fixtures';
import { largeRun } from '../helpers/large-run';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

// Steadybit sends every target of a run, with every attribute when the preflight webhook's
// targetAttributeIncludes is `*`: 10,000 containers are a body of 7-10 MB. The started service,
// with its default BODY_LIMIT, must decide such a run (a 413 would stop it).
const SECRET = 'large-run-secret-8d1f';
const dir = mkdtempSync(join(tmpdir(), 'preflight-gate-large-run-'));
writeFileSync(
  join(dir, 'no-system-namespaces.yaml'),
  'kind: Policy\nname: no-system-namespaces\nrules:\n  - targetAttributes: { forbid: { k8s.namespace: [kube-system] } }\n',
);
writeFileSync(
  join(dir, 'target-cap.yaml'),
  'kind: Policy\nname: target-cap\nrules:\n  - targets: { maxPerStep: 10000 }\n',
);

let proc: ServerProcess;
afterAll(async () => {
  await proc?.stop('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function send(body: Buffer): Promise<{ status: number; message: string }> {
  const res = await signedPost(`${proc.url}/preflight`, body, SECRET);
  return { status: res.status, message: ((await res.json()) as { message: string }).message };
}

describe('a run on 10,000 containers with every attribute', () => {
  test('is decided by the started service with the default BODY_LIMIT: allowed, or denied naming the one target', async () => {
    proc = await startServerProcess({ POLICY_DIR: dir, POLICY_WATCH: 'false', WEBHOOK_SECRET: SECRET });
    const run = largeRun(preflightPayload(), 10_000);
    const body = Buffer.from(JSON.stringify(run));
    expect(body.length).toBeGreaterThan(7_000_000);
    expect(body.length).toBeLessThan(11_000_000);

    const allowed = await send(body);
    expect(allowed).toEqual({
      status: 200,
      message: expect.stringMatching(/^Allowed: 3 of 3 policies applied, none denied\./),
    });

    const targets = (run.execution.steps as Step[])[1].targetExecutions ?? [];
    const last = targets[targets.length - 1];
    last.attributes = last.attributes?.map((a) => (a.key === 'k8s.namespace' ? { ...a, value: 'kube-system' } : a));
    const denied = await send(Buffer.from(JSON.stringify(run)));
    expect(denied.status).toBe(403);
    expect(denied.message).toContain('no-system-namespaces');
    expect(denied.message).toContain(last.name);
  }, 120_000);
});
