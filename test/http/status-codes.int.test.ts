import Ajv from 'ajv';
import request from 'supertest';
import responseSchema from '../fixtures/schemas/preflight-webhook-response.schema.json';
import type { PolicyBundle } from '../../src/policy/core/compiled';
import { preflightPayload, preflightWith, rawPayload } from '../helpers/fixtures';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';
import { memoryAuditLog } from '../observability/audit-sink';

const validateResponse = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(responseSchema);
const blocked = 'kind: Policy\nname: blocked-environments\nrules:\n  - environments: { blocked: [payments-prod] }\n';
const tagging = `
kind: Policy
name: tag-runs
modifications:
  - { type: add_value_to_list_property, propertyKey: tags, value: "checked-by-preflight-gate" }
  - { type: set_property_value, propertyKey: decision, value: "{{decisionId}}" }
`;
const bundle = bundleFrom({ 'blocked.yaml': blocked });
const spec = rawPayload('spec-execution-example-as-preflight.json');

/** The bundle with its only policy's rule replaced by one that throws. */
function withThrowingRule(b: PolicyBundle): PolicyBundle {
  const check = () => {
    throw new Error('rule bug');
  };
  return {
    ...b,
    policies: b.policies.map((p) => ({
      ...p,
      rules: [{ kind: 'environments', path: 'rules[0].environments', check }],
    })),
  };
}

/** The bundle with its only policy's scope throwing: a bug outside any rule's try/catch. */
function withThrowingScope(b: PolicyBundle): PolicyBundle {
  const runMiss = (): string | undefined => {
    throw new Error('scope bug');
  };
  return { ...b, policies: b.policies.map((p) => ({ ...p, match: { ...p.match, narrowsRun: true, runMiss } })) };
}

describe('POST /preflight answers', () => {
  test('200 allow: a body valid against PreflightWebhookResponseAO with exactly message and modifications', async () => {
    const { app } = testApp(bundle);
    const res = await signedRequest(app, spec);
    expect(res.status).toBe(200);
    expect(validateResponse(res.body)).toBe(true);
    expect(Object.keys(res.body).sort()).toEqual(['message', 'modifications']);
    expect(res.body.message).toBe(
      `Allowed: 1 of 1 policy applied, none denied. (decision ${res.headers['x-preflight-decision-id']}, policy revision ${bundle.revision})`,
    );
    expect(res.headers['x-preflight-policy-revision']).toBe(bundle.revision);
  });

  test('200 allow with modifications: each one is a valid ExecutionModification', async () => {
    const { app } = testApp(bundleFrom({ 'blocked.yaml': blocked, 'tag.yaml': tagging }), { newId: () => 'd-42' });
    const res = await signedRequest(app, spec);
    expect(res.status).toBe(200);
    expect(res.body.modifications).toEqual([
      { type: 'add_value_to_list_property', propertyKey: 'tags', value: 'checked-by-preflight-gate' },
      { type: 'set_property_value', propertyKey: 'decision', value: 'd-42' },
    ]);
    expect(validateResponse(res.body)).toBe(true);
  });

  test('the response schema fixture rejects what Steadybit would not understand', () => {
    expect(validateResponse({ message: 'x', modifications: [{ type: 'rename', propertyKey: 'a', value: 'b' }] })).toBe(
      false,
    );
    expect(validateResponse({ message: 'x', modifications: [{ type: 'set_property_value', value: 'b' }] })).toBe(false);
    expect(validateResponse({ message: 42 })).toBe(false);
  });

  test('?explain=true adds the full explanation to the answer', async () => {
    const { app } = testApp(bundle);
    const res = await signedRequest(app, spec, { query: { explain: 'true' } });
    expect(res.status).toBe(200);
    expect(res.body.explanation).toMatchObject({
      allowed: true,
      results: [{ policy: 'blocked-environments', result: 'pass', mode: 'enforce' }],
    });
    expect(validateResponse(res.body)).toBe(true);
  });

  test('403 deny names the policy and the reason', async () => {
    const { app } = testApp(bundle);
    const res = await signedRequest(
      app,
      preflightWith((p) => {
        p.execution.environment = 'payments-prod';
      }),
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      message: expect.stringMatching(
        /^Denied by 1 policy: \[blocked-environments\] environment payments-prod is blocked \(decision /,
      ),
    });
  });

  test.each<[string, string | Buffer, number, RegExp]>([
    ['400 for a body that is not JSON', '{"event": ', 400, /^the body is not valid JSON: /],
    ['400 for an empty body', '', 400, /^the body is not valid JSON: /],
    [
      '400 naming the field path of a payload error',
      JSON.stringify(
        preflightWith((p) => {
          Object.assign(p.execution.steps?.[1] ?? {}, { totalTargetCount: 'three' });
        }),
      ),
      400,
      /^invalid preflight payload: execution\.steps\[1\]\.totalTargetCount must be integer$/,
    ],
    [
      '400 naming `event` for another event',
      JSON.stringify({ ...preflightPayload(), event: 'killswitch.engaged' }),
      400,
      /^invalid preflight payload: event must be "experiment\.execution\.preflight", got "killswitch\.engaged"$/,
    ],
  ])('%s', async (_name, body, status, message) => {
    const { app } = testApp(bundle);
    const res = await signedRequest(app, body);
    expect(res.status).toBe(status);
    expect(res.body.message).toMatch(message);
  });

  test('400 lists every field error as {path, message}', async () => {
    const { app } = testApp(bundle);
    const res = await signedRequest(
      app,
      preflightWith((p) => {
        Object.assign(p.execution, { id: 'x', teamKey: 7 });
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { path: 'execution.id', message: 'must be integer' },
        { path: 'execution.teamKey', message: 'must be string' },
      ]),
    );
  });

  test.each<[string, { contentType?: string; omitHeader?: 'content-type' }]>([
    ['text/plain', { contentType: 'text/plain' }],
    ['a form', { contentType: 'application/x-www-form-urlencoded' }],
    ['no content type', { omitHeader: 'content-type' }],
  ])('415 for %s', async (_name, opts) => {
    const { app } = testApp(bundle);
    const res = await signedRequest(app, spec, opts);
    expect(res.status).toBe(415);
    expect(res.body.message).toMatch(/^unsupported content type ".*": send the webhook payload as application\/json$/);
  });

  test.each(['application/json; charset=utf-8', 'application/json;charset="UTF-8"', 'application/json; CHARSET=Utf-8'])(
    '%s is accepted',
    async (contentType) => {
      const { app } = testApp(bundle);
      expect((await signedRequest(app, spec, { contentType })).status).toBe(200);
    },
  );

  // Issue 19 item 4: a body is read one way only. Labelled latin1, its bytes would mean other text.
  test.each(['latin1', 'iso-8859-1', '"windows-1252"', 'utf-16'])(
    '415 for application/json; charset=%s',
    async (charset) => {
      const { app } = testApp(bundle);
      const res = await signedRequest(app, spec, { contentType: `application/json; charset=${charset}` });
      expect(res.status).toBe(415);
      expect(res.body.message).toBe(
        `unsupported charset "${charset.replace(/"/g, '')}": JSON is UTF-8; send the payload as UTF-8 (charset=utf-8, or none)`,
      );
    },
  );

  test('413 over the configured body limit, naming the limit; a body under it is decided', async () => {
    const { app } = testApp(bundle, { bodyLimit: '4kb' });
    const big = JSON.stringify(
      preflightWith((p) => {
        p.execution.hypothesis = 'x'.repeat(4096);
      }),
    );
    const res = await signedRequest(app, big);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'the body is larger than the limit of 4096 bytes (BODY_LIMIT)' });
    expect((await signedRequest(app, spec)).status).toBe(200);
  });

  test('413 above the default limit of 16 MiB', async () => {
    const { app } = testApp(bundle);
    const res = await signedRequest(
      app,
      JSON.stringify(
        preflightWith((p) => {
          p.execution.hypothesis = 'x'.repeat(16 * 1024 * 1024);
        }),
      ),
    );
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('the body is larger than the limit of 16777216 bytes (BODY_LIMIT)');
  });

  test('503 while no valid policy set is loaded', async () => {
    const { app } = testApp(undefined);
    const res = await signedRequest(app, spec);
    expect(res.status).toBe(503);
    expect(res.body.message).toBe(
      'no valid policy set is loaded, so no run may start; see /readyz and the service log',
    );
  });

  test.each<[string, () => ReturnType<typeof testApp>]>([
    [
      'gathering facts throws',
      () =>
        testApp(bundle, {
          gatherFacts: () => {
            throw new Error('state store bug');
          },
        }),
    ],
    [
      'gathering facts rejects',
      () =>
        testApp(bundle, {
          gatherFacts: async () => {
            throw new Error('state store down');
          },
        }),
    ],
    ['evaluating the bundle throws', () => testApp(withThrowingScope(bundle))],
  ])('500, never an allow, when %s', async (_name, make) => {
    const { app, metrics } = make();
    const res = await signedRequest(app, spec);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      message: 'internal error in preflight-gate: no decision could be made, so the run is denied; see the service log',
    });
    const allowed = (await metrics.decisions.get()).values.find((v) => v.labels.decision === 'allow');
    expect(allowed?.value ?? 0).toBe(0);
  });

  test('403, never an allow, when a rule throws: the policy cannot decide', async () => {
    const { app } = testApp(withThrowingRule(bundle));
    const res = await signedRequest(app, spec);
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(
      /^Denied by 1 policy: \[blocked-environments\] cannot decide: rule rules\[0\]\.environments failed \(rule bug\)/,
    );
  });

  test('500, never an allow, when the answer cannot even be started (the decision id fails); counted; the service keeps answering', async () => {
    let fail = true;
    const sink = memoryAuditLog('info');
    const { app, metrics } = testApp(bundle, {
      audit: sink.audit,
      newId: () => {
        if (fail) throw new Error('no entropy');
        return 'd-2';
      },
    });
    const res = await signedRequest(app, spec);
    expect(res.status).toBe(500);
    expect(res.body.message).toMatch(
      /^internal error in preflight-gate: no decision could be made, so the run is denied/,
    );
    expect(await metrics.registry.getSingleMetricAsString('preflight_decisions_total')).toContain(
      'preflight_decisions_total{decision="error"} 1',
    );
    expect(sink.records()).toEqual([
      expect.objectContaining({ decisionId: '(none)', decision: 'error', status: 500, message: res.body.message }),
    ]);
    fail = false;
    expect((await signedRequest(app, spec)).status).toBe(200);
  });

  test.each<[string, string]>([
    ['GET', '/nope'],
    ['GET', '/preflight'],
    ['POST', '/preflight/extra'],
    ['DELETE', '/readyz'],
  ])('404 for %s %s', async (method, path) => {
    const { app } = testApp(bundle);
    const res = await request(app)[method.toLowerCase() as 'get' | 'post' | 'delete'](path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      message: `no route ${method} ${path}; Steadybit's preflight webhook URL is POST /preflight`,
    });
  });

  test('401 for an unsigned request while a secret is configured', async () => {
    const { app } = testApp(bundle, { secrets: ['s'] });
    const res = await signedRequest(app, spec);
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/^missing X-SB-Signature header/);
  });
});
