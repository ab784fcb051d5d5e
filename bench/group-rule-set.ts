import type { PolicyBundle } from '../src/policy/core/compiled';
import { loadBundle } from '../src/policy/loading/load-bundle';

/**
 * The policy set of the target-scaling stage's group measure (issue 33): blast radius per
 * deployment (count and share, the size from its fallback), per zone over the whole run, and
 * per node. On test/helpers/large-run.ts's containers: 485 deployments, 3 zones, one node each.
 */
const POLICIES = `kind: Policy
name: third-of-a-deployment
mode: warn
rules:
  - perGroup: { by: k8s.deployment, maxTargets: 100, maxShare: 34, size: { attribute: k8s.specification.replicas, default: 30 } }
---
kind: Policy
name: one-zone-per-run
mode: warn
rules:
  - perGroup: { by: aws.zone, per: run, maxGroups: 1 }
---
kind: Policy
name: pods-per-node
mode: warn
rules:
  - perGroup: { by: k8s.node.name, member: k8s.pod.name, maxTargets: 2, whenMissing: allow }
`;

export function groupRuleSet(): { name: string; bundle: PolicyBundle } {
  const loaded = loadBundle([{ file: 'group-rules.yaml', text: POLICIES }]);
  if (!loaded.ok) throw new Error(`the group rule set does not load: ${loaded.problems[0]?.message}`);
  return { name: 'perGroup by deployment, zone, node', bundle: loaded.bundle };
}
