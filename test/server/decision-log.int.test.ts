import { signatureHeader } from '../../src/signature/sign';
import { preflightWith, rawPayload } from '../helpers/fixtures';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { tempDirs } from '../cli/run-cli';
import { jsonLines } from './json-lines';

const OLD = 'log-test-old-secret-8d1f';
const NEW = 'log-test-new-secret-27ac';

// The process stops before its policy directory is removed (afterAll hooks run in the order declared).
let proc: ServerProcess;
afterAll(async () => {
  await proc?.stop('SIGKILL');
});
const dir = tempDirs()({
  'blocked.yaml': 'kind: Policy\nname: blocked-environments\nrules:\n  - environments: { blocked: [payments-prod] }\n',
});

async function post(raw: Buffer, signature: string): Promise<{ status: number; decisionId: string }> {
  const res = await fetch(`${proc.url}/preflight`, {
    method: 'POST',
    body: raw,
    headers: { 'content-type': 'application/json', 'x-sb-signature': signature },
  });
  await res.arrayBuffer();
  return { status: res.status, decisionId: res.headers.get('x-preflight-decision-id') ?? '' };
}

describe('the log of the started service', () => {
  test('one JSON line per decision with its facts, and never a secret anywhere', async () => {
    proc = await startServerProcess({ POLICY_DIR: dir, POLICY_WATCH: 'false', WEBHOOK_SECRET: `${OLD},${NEW}` });
    const allowedBody = rawPayload('spec-execution-example-as-preflight.json');
    const deniedBody = Buffer.from(
      JSON.stringify(
        preflightWith((p) => {
          p.execution.environment = 'payments-prod';
          p.execution.id = 4242;
        }),
      ),
    );
    const allowed = await post(allowedBody, signatureHeader(OLD, allowedBody));
    const denied = await post(deniedBody, signatureHeader(NEW, deniedBody));
    const unsigned = await post(allowedBody, `hmac-sha256 ${'0'.repeat(64)}`);
    expect([allowed.status, denied.status, unsigned.status]).toEqual([200, 403, 401]);
    expect(await proc.stop('SIGTERM')).toBe(0);

    const lines = jsonLines(proc.output());
    const about = (id: string) => lines.filter((l) => l.decisionId === id);
    expect(about(allowed.decisionId)).toEqual([
      expect.objectContaining({
        decisionId: allowed.decisionId,
        executionId: 1,
        experimentKey: 'ADM-1',
        team: 'ADM',
        environment: '32009f6e-ff90-47a5-8daa-80f4bb7ae591',
        decision: 'allow',
        durationMs: expect.any(Number),
        policies: [],
        passed: ['emergency-stop (built-in)', 'blocked-environments'],
        notApplied: 0,
      }),
    ]);
    expect(about(denied.decisionId)).toEqual([
      expect.objectContaining({
        decisionId: denied.decisionId,
        executionId: 4242,
        experimentKey: 'ADM-1',
        team: 'ADM',
        environment: 'payments-prod',
        decision: 'deny',
        durationMs: expect.any(Number),
        policies: expect.arrayContaining([
          expect.objectContaining({
            policy: 'blocked-environments',
            result: 'deny',
            reasons: ['environment payments-prod is blocked'],
          }),
        ]),
      }),
    ]);
    expect(about(unsigned.decisionId)).toEqual([expect.objectContaining({ decision: 'error', status: 401 })]);

    const output = proc.output();
    for (const secret of [OLD, NEW]) expect(output).not.toContain(secret);
  });
});
