import type { WebhookPayload } from '../../src/payload/types';
import { MemoryStateStore } from '../../src/state/memory-state-store';
import type { GuardrailState } from '../../src/state/guardrail-state';
import { payload, rawPayload } from '../helpers/fixtures';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';

const SECRET = 'events-secret';
const CREATED = 'docs-custom-webhook-execution-created.json';
const DISENGAGED = 'docs-custom-webhook-killswitch-disengaged.json';
const FIRED = Date.parse('2024-01-01T00:00:00Z'); // `time` of the docs' execution.created example
const bundle = bundleFrom({ 'p.yaml': 'kind: Policy\nname: no-dev\nrules:\n  - environments: {blocked: [dev]}\n' });

function app(clockMs = FIRED) {
  const state: GuardrailState = {
    store: new MemoryStateStore({ executionTtlMs: 3_600_000, eventToleranceMs: 900_000 }),
    onUnavailable: 'deny',
    emergencyStop: 'enforce',
    eventToleranceMs: 900_000,
  };
  return testApp(bundle, { secrets: [SECRET], state, clock: () => new Date(clockMs) }).app;
}

const post = (a: ReturnType<typeof app>, body: Buffer | string | object, opts = {}) =>
  signedRequest(a, body, { path: '/events', secret: SECRET, ...opts });
const withChange = (file: string, change: (p: WebhookPayload) => void) => {
  const p = payload(file);
  change(p);
  return p;
};

describe('POST /events', () => {
  test('the docs example of experiment.execution.created is recorded (202), its repeated delivery ignored (200)', async () => {
    const a = app();
    const first = await post(a, rawPayload(CREATED));
    expect([first.status, first.body.message]).toEqual([
      202,
      'recorded: execution 78151 is running (team:adm, environment:a7efb4f1-9b8e-46a7-a3eb-ffc29ba75eae)',
    ]);
    const again = await post(a, rawPayload(CREATED));
    expect([again.status, again.body.message]).toEqual([200, expect.stringContaining('ignored: a repeated delivery')]);
  });

  test('the docs example of killswitch.disengaged is recorded, its replay ignored', async () => {
    const a = app(Date.parse('2024-01-01T01:00:00Z'));
    const first = await post(a, rawPayload(DISENGAGED));
    expect([first.status, first.body.message]).toEqual([
      202,
      'recorded: emergency stop disengaged by e7ff1799-0430-4b1f-a835-c383b2a19543 at 2024-01-01T01:00:00.000000Z',
    ]);
    expect((await post(a, rawPayload(DISENGAGED))).status).toBe(200);
  });

  test.each([
    [
      'older than the tolerance',
      FIRED + 900_001,
      'ignored: event time 2024-01-01T00:00:00.000000000Z is older than the tolerance of 900 s (EVENT_TOLERANCE_SECONDS)',
    ],
    ['further in the future than the tolerance', FIRED - 900_001, 'is further in the future than the tolerance'],
  ])('an event %s is ignored (200)', async (_name, clockMs, message) => {
    const res = await post(app(clockMs), rawPayload(CREATED));
    expect([res.status, res.body.message]).toEqual([200, expect.stringContaining(message)]);
  });

  test.each([
    [
      'a step event',
      withChange(CREATED, (p) => {
        p.event = 'experiment.execution.step-started';
      }),
      'ignored: experiment.execution.step-started does not change the tracked state',
    ],
    [
      'a preflight event',
      withChange(CREATED, (p) => {
        p.event = 'experiment.execution.preflight';
      }),
      'ignored: experiment.execution.preflight does not change',
    ],
    [
      'an event of another kind',
      { event: 'team.created', time: '2024-01-01T00:00:00Z' },
      'ignored: event "team.created" is not tracked',
    ],
  ])('%s is accepted and ignored (200)', async (_name, body, message) => {
    const res = await post(app(), body);
    expect([res.status, res.body.message]).toEqual([200, expect.stringContaining(message)]);
  });

  test.each([
    ['no signature', rawPayload(CREATED), { omitHeader: 'x-sb-signature' }, 401, /X-SB-Signature/i],
    [
      'a signature made with another secret',
      rawPayload(CREATED),
      { secret: 'other' },
      401,
      /does not match the request body/,
    ],
    ['a body that is not JSON', '{"event":', {}, 400, /not valid JSON/],
    ['another content type', rawPayload(CREATED), { contentType: 'text/plain' }, 415, /application\/json/],
    [
      'a payload without event',
      { time: '2024-01-01T00:00:00Z' },
      {},
      400,
      /invalid webhook payload: event is required/,
    ],
    [
      'an execution event without time',
      withChange(CREATED, (p) => {
        delete p.time;
      }),
      {},
      400,
      /without time: the event cannot be ordered/,
    ],
    [
      'an execution event without an id',
      withChange(CREATED, (p) => {
        delete p.execution?.id;
      }),
      {},
      400,
      /without execution.id/,
    ],
    [
      'a kill switch event without details',
      { event: 'killswitch.engaged', time: '2024-01-01T00:00:00Z' },
      {},
      400,
      /without killswitch details/,
    ],
  ])('%s is refused (%#)', async (_name, body, opts, status, message) => {
    const res = await post(app(), body, opts);
    expect(res.status).toBe(status);
    expect(res.body.message).toMatch(message);
  });
});
