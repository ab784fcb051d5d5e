import { MemoryStateStore } from '../../src/state/memory-state-store';
import type { GuardrailState } from '../../src/state/guardrail-state';
import { preflightPayload, rawPayload } from '../helpers/fixtures';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';

const NOW = new Date('2026-01-05T09:05:00Z');
const ENGAGED = {
  event: 'killswitch.engaged',
  time: '2026-01-05T09:00:00.000000Z',
  killswitch: { engagedBy: 'oncall', engaged: '2026-01-05T09:00:00.000000Z' },
};
const bundle = bundleFrom({ 'p.yaml': 'kind: Policy\nname: no-dev\nrules:\n  - environments: {blocked: [dev]}\n' });

/** The same app with or without WEBHOOK_SECRET; requests are sent unsigned unless `secret` is given. */
function app(secrets: string[]) {
  const store = new MemoryStateStore({ executionTtlMs: 3_600_000, eventToleranceMs: 900_000 });
  const state: GuardrailState = { store, onUnavailable: 'deny', emergencyStop: 'enforce', eventToleranceMs: 900_000 };
  return testApp(bundle, { secrets, state, clock: () => NOW }).app;
}

describe('POST /events needs WEBHOOK_SECRET', () => {
  test.each([
    ['killswitch.engaged', Buffer.from(JSON.stringify(ENGAGED))],
    ['the docs experiment.execution.created', rawPayload('docs-custom-webhook-execution-created.json')],
    ['the docs killswitch.disengaged', rawPayload('docs-custom-webhook-killswitch-disengaged.json')],
  ])('without a secret, %s is refused with 401 and a message saying what to set', async (_name, body) => {
    const res = await signedRequest(app([]), body, { path: '/events' });
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(
      /^POST \/events needs WEBHOOK_SECRET: unsigned events could disengage the emergency stop/,
    );
  });

  test('an unsigned event changes no state: the preflight after it is still allowed', async () => {
    const a = app([]);
    expect((await signedRequest(a, ENGAGED, { path: '/events' })).status).toBe(401);
    const preflight = await signedRequest(a, preflightPayload());
    expect(preflight.status).toBe(200);
  });

  test('with a secret, the same signed event is recorded and engages the stop', async () => {
    const a = app(['s3cret']);
    expect((await signedRequest(a, ENGAGED, { path: '/events', secret: 's3cret' })).status).toBe(202);
    const preflight = await signedRequest(a, preflightPayload(), { secret: 's3cret' });
    expect(preflight.status).toBe(403);
    expect(preflight.body.message).toMatch(/oncall/);
  });
});
