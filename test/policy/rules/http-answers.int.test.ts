import type { PreflightPayload } from '../../../src/payload/types';
import { payload, preflightWith } from '../../helpers/fixtures';
import { signedRequest } from '../../helpers/signed-request';
import { testApp } from '../../helpers/test-app';
import { bundleFrom } from '../../helpers/bundle-from';

/** All five kinds in one policy, as a platform team would write them for containers. */
const guard = `
kind: Policy
name: container-guard
match: { actionKinds: [ATTACK] }
rules:
  - actions: { blocked: ["*shutdown*"] }
  - targets: { maxPerStep: 5, maxPercentage: 50 }
  - blastRadius: { requireKeys: [container.host/name], denyUnscoped: true }
  - targetAttributes: { forbid: { container.engine: [containerd] }, whenMissing: allow }
  - parameters: { duration: { max: 1m }, cpuLoad: { max: 100, whenMissing: allow } }
`;
const SECRET = 'rule-kinds-secret';
const send = (body: PreflightPayload) =>
  signedRequest(testApp(bundleFrom({ 'guard.yaml': guard }), { secrets: [SECRET] }).app, body, { secret: SECRET });

describe('POST /preflight with the step and target rule kinds', () => {
  test('the spec example complies: 200', async () => {
    const res = await send(preflightWith(() => {}));
    expect(res.status).toBe(200);
  });

  test('403 whose message names the step, the value and the reason for each broken rule', async () => {
    const res = await send(
      preflightWith((p) => {
        const step = p.execution.steps?.[1];
        if (!step?.radius || !step.targetExecutions) throw new Error('fixture changed');
        step.parameters = { cpuLoad: 100, duration: '5m' };
        step.radius.percentage = 80;
        step.targetExecutions[0].attributes?.push({ key: 'container.engine', value: 'containerd' });
      }),
    );
    expect(res.status).toBe(403);
    const step = 'step "com.steadybit.extension_container.stress_cpu" (steps[1])';
    expect(res.body.message).toContain(
      `${step} affects 80% of the matching targets (radius.percentage); at most 50% is allowed`,
    );
    expect(res.body.message).toContain('has container.engine=containerd, which is forbidden');
    expect(res.body.message).toContain(`${step} sets duration to "5m", more than the 1m allowed`);
  });

  test('the docs payload is unscoped by container.host/name: 403 saying which branch', async () => {
    const docs = {
      ...payload<PreflightPayload>('docs-custom-webhook-execution-created.json'),
      event: 'experiment.execution.preflight' as const,
    };
    const res = await send(docs);
    expect(res.status).toBe(403);
    expect(res.body.message).toContain(
      'is not scoped by container.host/name: its predicate is k8s.deployment EQUALS gateway, which does not pin container.host/name with EQUALS',
    );
  });
});
