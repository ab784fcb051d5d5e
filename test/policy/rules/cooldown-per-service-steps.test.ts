import { decide } from '../../../src/policy/engine/decide';
import type { PreflightPayload } from '../../../src/payload/types';
import { bundleFrom } from '../../helpers/bundle-from';
import { preflightWith } from '../../helpers/fixtures';

/** A cool-down per service in a policy scoped to some steps reads the services of those steps only. */
const NOW = new Date('2026-01-05T10:00:00Z');
const STOP = 'com.steadybit.extension_container.stop';
const SHUTDOWN = 'com.steadybit.extension_host.shutdown';
const policy = (match: string) => ({
  'p.yaml': `kind: Policy\nname: calm\n${match}rules:\n  - cooldown: { duration: 1h, per: service }\n`,
});
const on = (deployment?: string) => ({
  name: `pod-${deployment ?? 'unnamed'}`,
  type: 'com.steadybit.extension_kubernetes.kubernetes-pod',
  attributes: deployment === undefined ? [] : [{ key: 'k8s.deployment', value: deployment }],
});
/** A stop of a shop pod, and a shutdown of a pod of `other` (undefined: a pod naming no deployment). */
const run = (other?: string): PreflightPayload =>
  preflightWith((p) => {
    p.execution.steps = [
      { actionId: STOP, actionKind: 'ATTACK', totalTargetCount: 1, targetExecutions: [on('shop')] },
      { actionId: SHUTDOWN, actionKind: 'ATTACK', totalTargetCount: 1, targetExecutions: [on(other)] },
    ] as never;
  });
const cartFailed = {
  'service:k8s.deployment=cart': [{ id: '9', atMs: NOW.getTime() - 600_000, state: 'FAILED' as const }],
};
const allowed = (match: string, payload: PreflightPayload) =>
  decide(bundleFrom(policy(match)), payload, { state: { ended: cartFailed } }, NOW, { decisionId: 'd-1' }).allowed;

describe('cooldown per service in a policy scoped to some steps', () => {
  const stops = `match: { actionIds: [${STOP}] }\n`;

  test('a service cooling down that only a step outside the scope attacks: allowed; unscoped: denied', () => {
    expect(allowed(stops, run('cart'))).toBe(true);
    expect(allowed('', run('cart'))).toBe(false);
  });

  test('a step outside the scope whose target names no deployment cannot keep it from deciding', () => {
    expect(allowed(stops, run(undefined))).toBe(true);
    expect(allowed('', run(undefined))).toBe(false);
  });
});
