import { signatureHeader } from '../../src/signature/sign';
import { preflightWith } from '../helpers/fixtures';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { tempDirs } from '../cli/run-cli';
import { jsonLines } from './json-lines';

// Requests read in the same turn of the event loop are evaluated as one batch (src/http/turn-batch.ts).
// Sent all at once, every request must still get its own decision, answer and audit line.
const SECRET = 'concurrent-answers-secret-5c2e';

// The process stops before its policy directory is removed (afterAll hooks run in the order declared).
let proc: ServerProcess;
afterAll(async () => {
  await proc?.stop('SIGKILL');
});
const dir = tempDirs()({
  'blocked.yaml': 'kind: Policy\nname: blocked-environments\nrules:\n  - environments: { blocked: [payments-prod] }\n',
});

type Kind = 'allowed' | 'denied' | 'invalid' | 'unsigned';
const KINDS: readonly Kind[] = ['allowed', 'denied', 'allowed', 'invalid', 'denied', 'unsigned'];
const EXPECTED: Record<Kind, number> = { allowed: 200, denied: 403, invalid: 400, unsigned: 401 };

function body(kind: Kind, executionId: number): Buffer {
  const p = preflightWith((q) => {
    q.execution.id = executionId;
    if (kind === 'denied') q.execution.environment = 'payments-prod';
    if (kind === 'invalid') (q.execution as { experimentKey: unknown }).experimentKey = 42;
  });
  return Buffer.from(JSON.stringify(p));
}

describe('many preflights at once', () => {
  test('each gets the answer and the audit line of its own payload', async () => {
    proc = await startServerProcess({ POLICY_DIR: dir, POLICY_WATCH: 'false', WEBHOOK_SECRET: SECRET });
    const sent = Array.from({ length: 120 }, (_, k) => ({ kind: KINDS[k % KINDS.length], executionId: 1000 + k }));
    const answers = await Promise.all(
      sent.map(async ({ kind, executionId }) => {
        const raw = body(kind, executionId);
        const signature = kind === 'unsigned' ? `hmac-sha256 ${'0'.repeat(64)}` : signatureHeader(SECRET, raw);
        const res = await fetch(`${proc.url}/preflight`, {
          method: 'POST',
          body: raw,
          headers: { 'content-type': 'application/json', 'x-sb-signature': signature },
        });
        return {
          status: res.status,
          decisionId: res.headers.get('x-preflight-decision-id') ?? '',
          message: ((await res.json()) as { message: string }).message,
        };
      }),
    );
    expect(await proc.stop('SIGTERM')).toBe(0);

    expect(answers.map((a) => a.status)).toEqual(sent.map((s) => EXPECTED[s.kind]));
    expect(new Set(answers.map((a) => a.decisionId)).size).toBe(sent.length);
    const lines = jsonLines(proc.output()).filter((l) => l.log === 'audit');
    expect(lines).toHaveLength(sent.length);
    sent.forEach(({ kind, executionId }, k) => {
      const { decisionId, message } = answers[k];
      const line = lines.find((l) => l.decisionId === decisionId);
      if (kind === 'allowed' || kind === 'denied') {
        expect(message).toContain(`(decision ${decisionId},`);
        expect(line).toEqual(
          expect.objectContaining({
            executionId,
            decision: kind === 'allowed' ? 'allow' : 'deny',
            status: EXPECTED[kind],
          }),
        );
      } else {
        expect(line).toEqual(expect.objectContaining({ decision: 'error', status: EXPECTED[kind] }));
      }
    });
  });
});
