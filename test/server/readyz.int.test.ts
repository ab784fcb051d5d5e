import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UNSIGNED_WARNING } from '../../src/service/health-routes';
import { loadPolicyDir } from '../../src/policy/loading/load-policy-dir';
import { preflightWith, rawPayload } from '../helpers/fixtures';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { signedPost } from '../helpers/signed-post';
import { jsonLines } from './json-lines';

const dir = mkdtempSync(join(tmpdir(), 'preflight-gate-readyz-'));
writeFileSync(
  join(dir, 'blocked.yaml'),
  'kind: Policy\nname: blocked\nrules:\n  - environments: { blocked: [payments-prod] }\n',
);
writeFileSync(
  join(dir, 'staging-only.yaml'),
  'kind: Policy\nname: staging-only\nmatch: { teams: [STAGE] }\nrules:\n  - environments: { allowed: [staging] }\n',
);
writeFileSync(
  join(dir, 'aliases.yaml'),
  'kind: EnvironmentAliases\naliases:\n  staging: [aaaaaaaa-0000-4000-8000-000000000001]\n',
);
// Not loaded: the service names it once at start-up.
writeFileSync(join(dir, 'blocked.yaml.bak'), 'kind: Policy\nname: old\nrules: []\n');
const loaded = loadPolicyDir(dir);
const revision = loaded.ok ? loaded.bundle.revision : 'invalid';

const procs: ServerProcess[] = [];
async function start(env: Record<string, string>): Promise<ServerProcess> {
  const proc = await startServerProcess({ POLICY_DIR: dir, POLICY_WATCH: 'false', ...env });
  procs.push(proc);
  return proc;
}
afterAll(async () => {
  for (const proc of procs) await proc.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('/readyz and /healthz of the started service', () => {
  test('without WEBHOOK_SECRET: ready, signatures not enforced, with a warning (also at start-up)', async () => {
    const proc = await start({});
    const res = await fetch(`${proc.url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: 'ready',
      signaturesEnforced: false,
      warning: UNSIGNED_WARNING,
      revision,
      policies: 3,
      builtInPolicies: ['emergency-stop (built-in)'],
      policiesFromFiles: 2,
    });
    expect(jsonLines(proc.output())).toContainEqual(
      expect.objectContaining({ level: 'warn', message: UNSIGNED_WARNING }),
    );
    const ignored = jsonLines(proc.output()).filter((l) => String(l.message).includes('not loaded, ignored'));
    expect(ignored).toEqual([
      expect.objectContaining({
        level: 'warn',
        message: expect.stringMatching(/^policy directory: not loaded, ignored: blocked\.yaml\.bak; only \*\.yaml/),
        ignored: ['blocked.yaml.bak'],
      }),
    ]);
    // /readyz lists it with the load's warnings, at the file.
    const ready = (await (await fetch(`${proc.url}/readyz`)).json()) as { lastLoad: { problems: string[] } };
    expect(ready.lastLoad.problems).toContainEqual(
      expect.stringMatching(new RegExp(`^${dir}/blocked\\.yaml\\.bak:1:1 .*not loaded, ignored: only \\*\\.yaml`)),
    );
    // The start-up log counts as /readyz does, and names both parts.
    const counts = { policies: 3, policiesFromFiles: 2, builtInPolicies: ['emergency-stop (built-in)'] };
    expect(jsonLines(proc.output())).toContainEqual(
      expect.objectContaining({ message: 'policy set loaded', ...counts }),
    );
    expect(jsonLines(proc.output())).toContainEqual(expect.objectContaining({ message: 'listening', ...counts }));
    expect(await (await fetch(`${proc.url}/healthz`)).json()).toEqual({ status: 'alive' });
  });

  test('with WEBHOOK_SECRET: signatures enforced, no warning; BODY_LIMIT applies to POST /preflight', async () => {
    const proc = await start({ WEBHOOK_SECRET: 'readyz-secret', BODY_LIMIT: '4kb' });
    const res = await fetch(`${proc.url}/readyz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { policies: number };
    expect(body).toMatchObject({
      status: 'ready',
      signaturesEnforced: true,
      revision,
      policies: 3,
      builtInPolicies: ['emergency-stop (built-in)'],
    });
    expect(body).not.toHaveProperty('warning');
    expect(proc.output()).not.toContain(UNSIGNED_WARNING);

    const post = (raw: Buffer) => signedPost(`${proc.url}/preflight`, raw, 'readyz-secret');
    const allowed = await post(rawPayload('spec-execution-example-as-preflight.json'));
    expect(allowed.status).toBe(200);
    // The decision counts the policies as /readyz does: the built-in emergency stop in both.
    expect(((await allowed.json()) as { message: string }).message).toMatch(
      new RegExp(`^Allowed: \\d+ of ${body.policies} policies applied`),
    );
    const big = await post(
      Buffer.from(
        JSON.stringify(
          preflightWith((p) => {
            p.execution.hypothesis = 'x'.repeat(5000);
          }),
        ),
      ),
    );
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ message: 'the body is larger than the limit of 4096 bytes (BODY_LIMIT)' });
  });

  test('with EMERGENCY_STOP_POLICY=off: no built-in policy, counted alike by /readyz and the decision', async () => {
    const proc = await start({ EMERGENCY_STOP_POLICY: 'off' });
    expect(await (await fetch(`${proc.url}/readyz`)).json()).toMatchObject({
      policies: 2,
      builtInPolicies: [],
      policiesFromFiles: 2,
    });
    expect(jsonLines(proc.output())).toContainEqual(
      expect.objectContaining({ message: 'policy set loaded', policies: 2, policiesFromFiles: 2, builtInPolicies: [] }),
    );
    const res = await fetch(`${proc.url}/preflight`, {
      method: 'POST',
      body: rawPayload('spec-execution-example-as-preflight.json'),
      headers: { 'content-type': 'application/json' },
    });
    expect(((await res.json()) as { message: string }).message).toMatch(/^Allowed: \d+ of 2 policies applied/);
  });
});
