import { auditLogTo } from '../../src/observability/audit-log';
import { capturingLogger } from '../helpers/capturing-logger';
import { preflightWith } from '../helpers/fixtures';
import { waitFor } from '../helpers/server-process';
import { signedRequest } from '../helpers/signed-request';
import { testApp, type TestAppOverrides } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';

const bundle = bundleFrom({
  'p.yaml': 'kind: Policy\nname: no-payments\nrules:\n  - environments: {blocked: [payments]}\n',
});

const payments = preflightWith((p) => {
  p.execution.environment = 'payments';
});
const prod = preflightWith(() => undefined);

/** The four consumers of an answer, noting in `calls` when each is reached; each throws when `failing`. */
function consumers(calls: string[], failing: boolean): TestAppOverrides {
  const reach = (name: string) => {
    calls.push(name);
    if (failing) throw new Error(`${name} is broken`);
  };
  return {
    audit: auditLogTo(() => reach('audit'), 'info', { kind: 'all' }),
    archive: { record: () => reach('archive') },
    notifier: { decided: () => reach('notifications') },
    guard: {
      keep: () => reach('guard'),
      health: () => ({ guardedPolicies: 0, canStop: false, intervalSeconds: 15, stops: 0 }),
    },
  };
}

/** What the client sees of an answer: status, body and the headers the service sets. */
const seen = (res: { status: number; text: string; headers: Record<string, string> }) => ({
  status: res.status,
  text: res.text,
  id: res.headers['x-preflight-decision-id'],
  revision: res.headers['x-preflight-policy-revision'],
});

describe('one record after each answer, to audit and metrics, the archive, notifications and the guard', () => {
  it('reaches them in that order, once each, after an allowed and after a denied run', async () => {
    const calls: string[] = [];
    const { app } = testApp(bundle, { ...consumers(calls, false), newId: () => 'd-1' });
    for (const payload of [prod, payments]) {
      calls.length = 0;
      await signedRequest(app, payload);
      await waitFor(async () => calls.length === 4, 'every consumer');
      expect(calls).toEqual(['audit', 'archive', 'notifications', 'guard']);
    }
  });

  it('answers the same with every consumer throwing as with none, and reaches each of them all the same', async () => {
    const calls: string[] = [];
    const { logger, lines } = capturingLogger();
    const broken = testApp(bundle, { ...consumers(calls, true), logger, newId: () => 'd-1' }).app;
    const plain = testApp(bundle, { newId: () => 'd-1' }).app;
    for (const payload of [prod, payments]) {
      calls.length = 0;
      lines.length = 0;
      const answer = await signedRequest(broken, payload);
      expect(seen(answer)).toEqual(seen(await signedRequest(plain, payload)));
      await waitFor(async () => calls.length === 4 && lines.length === 4, 'every consumer, every error line');
      expect(calls).toEqual(['audit', 'archive', 'notifications', 'guard']);
      expect(lines.map((l) => [l.level, l.message, l.error])).toEqual([
        ['error', 'the audit line or metrics of an answer could not be written', 'audit is broken'],
        ['error', 'after an answer, the decision archive failed; the answer was sent as decided', 'archive is broken'],
        ['error', 'after an answer, notifications failed; the answer was sent as decided', 'notifications is broken'],
        ['error', 'after an answer, the guard failed; the answer was sent as decided', 'guard is broken'],
      ]);
    }
    // And the service keeps answering.
    expect((await signedRequest(broken, payments)).status).toBe(403);
  });

  it('tells the archive, notifications and the guard nothing of an answer that decided nothing', async () => {
    const calls: string[] = [];
    const { app } = testApp(bundle, consumers(calls, false));
    const res = await signedRequest(app, { not: 'a preflight' });
    expect(res.status).toBe(400);
    await waitFor(async () => calls.length > 0, 'the audit line');
    expect(calls).toEqual(['audit']);
  });
});
