import { decide } from '../../src/policy/engine/decide';
import type { DecidedRun } from '../../src/notify/decision-notifications';
import type { PreflightPayload } from '../../src/payload/types';
import { preflightWith } from '../helpers/fixtures';
import { bundleFrom } from '../helpers/bundle-from';

/** A policy set with one policy of each mode and an exception: every decision kind a notification comes from. */
export const NOTIFY_POLICIES = {
  'policies.yaml': `
kind: Policy
name: no-kube-system
rules:
  - targetAttributes:
      forbid:
        k8s.namespace: [kube-system]
message: "{{reason}}"
---
kind: Policy
name: small-runs
mode: warn
rules:
  - targetAttributes:
      forbid:
        k8s.namespace: [payments]
---
kind: Policy
name: no-staging-db
rules:
  - targetAttributes:
      forbid:
        k8s.namespace: [staging-db]
---
kind: Exception
name: staging-db-drill
policy: no-staging-db
owner: sre@example.com
reason: quarterly restore drill
expires: "2099-01-01T00:00:00Z"
`,
};

const bundle = bundleFrom(NOTIFY_POLICIES, new Date('2026-03-02T10:00:00Z'));

/** The spec's example run, its first step touching one pod in `namespace`. */
export function runIn(namespace: string, change: (p: PreflightPayload) => void = () => undefined): PreflightPayload {
  return preflightWith((p) => {
    p.execution.steps = [
      {
        id: 's1',
        actionId: 'com.steadybit.extension_kubernetes.delete_pod',
        actionKind: 'ATTACK',
        targetExecutions: [
          {
            type: 'com.steadybit.extension_kubernetes.kubernetes-pod',
            name: 'checkout-7d9f',
            attributes: [{ key: 'k8s.namespace', value: namespace }],
          },
        ],
      },
    ];
    change(p);
  });
}

/** The decision on a payload, as the route hands it to the notifier. */
export function decidedRun(payload: PreflightPayload, decisionId = 'd-1'): DecidedRun {
  const decision = decide(bundle, payload, {}, new Date('2026-03-02T10:00:00Z'), { decisionId });
  return { decision, payload, facts: {} };
}
