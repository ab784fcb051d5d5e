import { capturingLogger } from '../helpers/capturing-logger';
import { preflightPayload } from '../helpers/fixtures';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';

describe('how refused and failed requests are logged', () => {
  test('a 503 (no policy set loaded) is a warning with its message, without a stack trace', async () => {
    const { logger, lines } = capturingLogger();
    const res = await signedRequest(testApp(undefined, { logger }).app, preflightPayload());
    expect(res.status).toBe(503);
    const logged = lines.filter((l) => l.path === '/preflight');
    expect(logged).toEqual([
      expect.objectContaining({
        level: 'warn',
        message: 'request refused',
        status: 503,
        reason: expect.stringMatching(/^no valid policy set is loaded/),
      }),
    ]);
    expect(JSON.stringify(logged)).not.toMatch(/\n\s+at /);
  });

  test('a 500 (a dependency threw) is an error with the stack trace', async () => {
    const { logger, lines } = capturingLogger();
    const bundle = bundleFrom({ 'p.yaml': 'kind: Policy\nname: p\nrules:\n  - environments: {blocked: [prod]}\n' });
    const app = testApp(bundle, {
      logger,
      gatherFacts: async () => {
        throw new Error('state exploded');
      },
    }).app;
    const res = await signedRequest(app, preflightPayload());
    expect(res.status).toBe(500);
    const logged = lines.filter((l) => l.path === '/preflight');
    expect(logged).toEqual([expect.objectContaining({ level: 'error', message: 'request failed' })]);
    expect(String(logged[0].error)).toMatch(/state exploded\n\s+at /);
  });
});
