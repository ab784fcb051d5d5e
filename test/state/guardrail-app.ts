import type { WebhookPayload } from '../../src/payload/types';
import type { GuardrailState } from '../../src/state/guardrail-state';
import type { StateStore } from '../../src/state/state-store';
import { preflightWith } from '../helpers/fixtures';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';
import { T0 } from './state-events';

export const SECRET = 'state-secret';

/** A policy set that says nothing about state: the emergency stop still applies (built in). */
export const PLAIN_POLICIES = { 'p.yaml': 'kind: Policy\nname: no-dev\nrules:\n  - environments: {blocked: [dev]}\n' };

/** An app with guardrails with memory on `store`, signed requests, and a clock at T0 (or moved by the test). */
export function guardrailApp(
  store: StateStore,
  opts: {
    files?: Record<string, string>;
    emergencyStop?: GuardrailState['emergencyStop'];
    onUnavailable?: GuardrailState['onUnavailable'];
    clock?: () => Date;
  } = {},
) {
  const state: GuardrailState = {
    store,
    onUnavailable: opts.onUnavailable ?? 'deny',
    emergencyStop: opts.emergencyStop ?? 'enforce',
    eventToleranceMs: 900_000,
  };
  const { app } = testApp(bundleFrom(opts.files ?? PLAIN_POLICIES), {
    secrets: [SECRET],
    state,
    clock: opts.clock ?? (() => new Date(T0)),
  });
  return {
    app,
    event: (body: WebhookPayload) => signedRequest(app, body, { path: '/events', secret: SECRET }),
    preflight: (id: number, env = 'prod', team = 'ADM') =>
      signedRequest(
        app,
        preflightWith((p) => {
          p.execution.id = id;
          p.execution.environment = env;
          p.execution.teamKey = team;
        }),
        { secret: SECRET },
      ),
  };
}
