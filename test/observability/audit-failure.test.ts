import { Writable } from 'node:stream';
import winston from 'winston';
import { auditLogTo } from '../../src/observability/audit-log';
import { preflightWith } from '../helpers/fixtures';
import { waitFor } from '../helpers/server-process';
import { signedRequest } from '../helpers/signed-request';
import { bundleFrom, testApp } from '../helpers/test-app';

/** A logger whose JSON lines are kept in memory. */
function memoryLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return {
    logger: winston.createLogger({
      format: winston.format.json(),
      transports: [new winston.transports.Stream({ stream })],
    }),
    lines,
  };
}

describe('an audit line that cannot be written (e.g. a full disk) after the answer', () => {
  test('is logged as an error with the decision id; the service keeps answering', async () => {
    const failingAudit = auditLogTo(
      () => {
        throw new Error('ENOSPC: no space left on device, write');
      },
      'info',
      { kind: 'all' },
    );
    const { logger, lines } = memoryLogger();
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
