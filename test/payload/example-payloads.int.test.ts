import { validatePayload } from '../../src/payload/validate-payload';
import type { WebhookPayload } from '../../src/payload/types';
import { examplePayloadFiles, payload, rawPayload } from '../helpers/fixtures';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';

const SECRET = 'example-payload-secret';
const bundle = bundleFrom({
  'blocked.yaml': 'kind: Policy\nname: blocked-environments\nrules:\n  - environments: { blocked: [payments-prod] }\n',
});
const app = () => testApp(bundle, { secrets: [SECRET], clock: () => new Date('2026-01-05T10:00:00Z') }).app;

const files = examplePayloadFiles();
const withExecution = files.filter((f) => payload(f).execution !== undefined);
const preflightEvents = files.filter((f) => payload(f).event === 'experiment.execution.preflight');
const otherEvents = files.filter((f) => payload(f).event !== 'experiment.execution.preflight');
const asPreflight = (file: string, change: (p: WebhookPayload) => void = () => undefined) => {
  const p = payload(file);
  p.event = 'experiment.execution.preflight';
  change(p);
  return p;
};

describe("Steadybit's published example payloads (test/fixtures/payloads)", () => {
  test('the fixtures hold every kind: preflight, another execution event, and kill switch events', () => {
    expect(files).toHaveLength(4);
    expect(withExecution.length).toBeGreaterThanOrEqual(2);
    expect(files.filter((f) => payload(f).killswitch !== undefined).length).toBeGreaterThanOrEqual(2);
  });

  test.each(files)('%s passes payload validation', (file) => {
    expect(validatePayload(payload(file))).toEqual({ ok: true, payload: payload(file) });
  });

  test.each(preflightEvents)('%s, posted byte for byte, is decided: allowed with a decision id', async (file) => {
    const res = await signedRequest(app(), rawPayload(file), { secret: SECRET });
    expect(res.status).toBe(200);
    expect(res.body.message).toMatch(/^Allowed: 1 of 1 policy applied, none denied/);
    expect(res.headers['x-preflight-decision-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  test.each(withExecution)(
    '%s, sent as a preflight event, is decided: allowed outside the blocked environment',
    async (file) => {
      const res = await signedRequest(app(), asPreflight(file), { secret: SECRET });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: expect.stringMatching(/^Allowed/), modifications: [] });
    },
  );

  test.each(withExecution)(
    '%s, sent as a preflight event into payments-prod, is denied naming the policy',
    async (file) => {
      const res = await signedRequest(
        app(),
        asPreflight(file, (p) => {
          if (p.execution) p.execution.environment = 'payments-prod';
        }),
        { secret: SECRET },
      );
      expect(res.status).toBe(403);
      expect(res.body.message).toContain('[blocked-environments] environment payments-prod is blocked');
    },
  );

  test.each(otherEvents)('%s, posted byte for byte, is a 400 naming `event`', async (file) => {
    const res = await signedRequest(app(), rawPayload(file), { secret: SECRET });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      `invalid preflight payload: event must be "experiment.execution.preflight", got "${payload(file).event}"`,
    );
  });

  test.each(files.filter((f) => payload(f).execution === undefined))(
    '%s, relabelled as a preflight event, is a 400 naming `execution`',
    async (file) => {
      const res = await signedRequest(app(), asPreflight(file), { secret: SECRET });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('invalid preflight payload: execution is required for a preflight decision');
    },
  );
});
