import request from 'supertest';
import { preflightPayload, preflightWith } from '../helpers/fixtures';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';
import { memoryAuditLog, seriesOf } from './audit-sink';

const SECRET = 'outcome-test-secret';
const POLICIES = {
  'blocked.yaml':
    'kind: Policy\nname: no-chaos-in-payments\nrules:\n  - environments:\n      blocked: [payments-prod]\n',
  'warn.yaml':
    'kind: Policy\nname: careful-in-staging\nmode: warn\nrules:\n  - environments:\n      blocked: [staging]\n',
};
const inEnvironment = (environment: string) =>
  preflightWith((p) => {
    p.execution.environment = environment;
  });

type Send = (app: ReturnType<typeof testApp>['app']) => request.Test;

/** Every way POST /preflight can be answered, and how the answer is counted. */
const cases: Array<{
  name: string;
  send: Send;
  status: number;
  decision: 'allow' | 'deny' | 'error';
  bundle?: false;
  throwsInState?: true;
  bodyLimit?: string;
}> = [
  {
    name: 'an allowed run',
    send: (app) => signedRequest(app, inEnvironment('dev'), { secret: SECRET }),
    status: 200,
    decision: 'allow',
  },
  {
    name: 'an allowed run with a warning',
    send: (app) => signedRequest(app, inEnvironment('staging'), { secret: SECRET }),
    status: 200,
    decision: 'allow',
  },
  {
    name: 'a denied run',
    send: (app) => signedRequest(app, inEnvironment('payments-prod'), { secret: SECRET }),
    status: 403,
    decision: 'deny',
  },
  {
    name: 'a wrong signature (401)',
    send: (app) => signedRequest(app, preflightPayload(), { secret: 'not-the-secret' }),
    status: 401,
    decision: 'error',
  },
  {
    name: 'a missing signature (401)',
    send: (app) => signedRequest(app, preflightPayload(), {}),
    status: 401,
    decision: 'error',
  },
  {
    name: 'a body that is not JSON (400)',
    send: (app) => signedRequest(app, '{"event":', { secret: SECRET }),
    status: 400,
    decision: 'error',
  },
  {
    name: 'a payload that fails validation (400)',
    send: (app) =>
      signedRequest(app, { event: 'experiment.execution.preflight', execution: { id: 'x' } }, { secret: SECRET }),
    status: 400,
    decision: 'error',
  },
  {
    name: 'a wrong content type (415)',
    send: (app) => signedRequest(app, preflightPayload(), { secret: SECRET, contentType: 'text/plain' }),
    status: 415,
    decision: 'error',
  },
  {
    name: 'a body over the limit (413)',
    send: (app) => signedRequest(app, preflightPayload(), { secret: SECRET }),
    status: 413,
    decision: 'error',
    bodyLimit: '100b',
  },
  {
    name: 'no policy set loaded (503)',
    send: (app) => signedRequest(app, preflightPayload(), { secret: SECRET }),
    status: 503,
    decision: 'error',
    bundle: false,
  },
  {
    name: 'a failure inside the service (500)',
    send: (app) => signedRequest(app, preflightPayload(), { secret: SECRET }),
    status: 500,
    decision: 'error',
    throwsInState: true,
  },
];

describe('every answer to POST /preflight is counted once and audited once', () => {
  it.each(cases)('$name: status $status counts as $decision', async (c) => {
    const sink = memoryAuditLog();
    const { app, metrics } = testApp(c.bundle === false ? undefined : bundleFrom(POLICIES), {
      secrets: [SECRET],
      audit: sink.audit,
      ...(c.bodyLimit ? { bodyLimit: c.bodyLimit } : {}),
      ...(c.throwsInState
        ? {
            gatherFacts: async () => {
              throw new Error('state backend exploded');
            },
          }
        : {}),
    });
    const res = await c.send(app);
    expect(res.status).toBe(c.status);

    const counted = await seriesOf(metrics, 'preflight_decisions_total');
    expect(counted).toEqual({
      'decision=allow': 0,
      'decision=deny': 0,
      'decision=error': 0,
      [`decision=${c.decision}`]: 1,
    });
    const records = sink.records();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      log: 'audit',
      decision: c.decision,
      status: c.status,
      decisionId: res.headers['x-preflight-decision-id'],
    });
    if (c.decision === 'error') expect(records[0].message).toBe(res.body.message);
  });
});

describe('requests that are not POST /preflight are not decisions', () => {
  it.each([
    ['GET /preflight', 404, (app: ReturnType<typeof testApp>['app']) => request(app).get('/preflight')],
    ['POST /nowhere', 404, (app: ReturnType<typeof testApp>['app']) => request(app).post('/nowhere').send({})],
    ['GET /readyz', 200, (app: ReturnType<typeof testApp>['app']) => request(app).get('/readyz')],
  ] as const)('%s is answered %d and counts no decision', async (_name, status, send) => {
    const sink = memoryAuditLog();
    const { app, metrics } = testApp(bundleFrom(POLICIES), { audit: sink.audit });
    expect((await send(app)).status).toBe(status);
    expect(await seriesOf(metrics, 'preflight_decisions_total')).toEqual({
      'decision=allow': 0,
      'decision=deny': 0,
      'decision=error': 0,
    });
    expect(sink.lines).toHaveLength(0);
  });
});

describe('policy results are counted per policy, result and mode', () => {
  it('a denial counts the denying policy and the warning policy it did not apply to is not counted', async () => {
    const { app, metrics } = testApp(bundleFrom(POLICIES));
    await signedRequest(app, inEnvironment('payments-prod')).expect(403);
    await signedRequest(app, inEnvironment('staging')).expect(200);
    expect(await seriesOf(metrics, 'preflight_policy_results_total')).toEqual({
      'mode=enforce,policy=no-chaos-in-payments,result=deny': 1,
      'mode=warn,policy=careful-in-staging,result=pass': 1,
      'mode=enforce,policy=no-chaos-in-payments,result=pass': 1,
      'mode=warn,policy=careful-in-staging,result=warn': 1,
    });
  });
});
