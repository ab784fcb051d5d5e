import { auditLogTo } from '../../src/observability/audit-log';
import { capturingLogger } from '../helpers/capturing-logger';
import { preflightWith } from '../helpers/fixtures';
import { waitFor } from '../helpers/server-process';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';

describe('an audit line that cannot be written (e.g. a full disk) after the answer', () => {
  test('is logged as an error with the decision id; the service keeps answering', async () => {
    const failingAudit = auditLogTo(
      () => {
        throw new Error('ENOSPC: no space left on device, write');
      },
      'info',
      { kind: 'all' },
    );
    const { logger, lines } = capturingLogger();
    const bundle = bundleFrom({
      'p.yaml': 'kind: Policy\nname: no-payments\nrules:\n  - environments: {blocked: [payments]}\n',
    });
    const { app } = testApp(bundle, { audit: failingAudit, logger, newId: () => 'decision-1' });

    const first = await signedRequest(
      app,
      preflightWith(() => undefined),
    );
    expect(first.status).toBe(200);
    await waitFor(async () => lines.length > 0, 'the error line');
    expect(lines[0]).toMatchObject({
      level: 'error',
      message: 'the audit line or metrics of an answer could not be written',
      decisionId: 'decision-1',
      error: 'ENOSPC: no space left on device, write',
    });

    const second = await signedRequest(
      app,
      preflightWith((p) => {
        p.execution.environment = 'payments';
      }),
    );
    expect(second.status).toBe(403);
  });
});
