import type { PreflightPayload, Step } from '../../src/payload/types';

const NAMESPACES = ['shop', 'payments', 'checkout', 'search', 'default'];
const ZONES = ['eu-central-1a', 'eu-central-1b', 'eu-central-1c'];

const hex = (i: number, width: number): string =>
  ((i * 2654435761) >>> 0)
    .toString(16)
    .padStart(8, '0')
    .repeat(Math.ceil(width / 8))
    .slice(0, width);

/**
 * The attributes Steadybit sends for one container when the preflight webhook's
 * targetAttributeIncludes is `*`: 15 of them, with values as long as real ones (ids, images, labels).
 */
function containerAttributes(i: number): Array<{ key: string; value: string }> {
  const namespace = NAMESPACES[i % NAMESPACES.length];
  const deployment = `${namespace}-service-${i % 97}`;
  const pod = `${deployment}-7d9f8c6b5-${hex(i, 5)}`;
  const node = `ip-10-0-${(i >> 8) % 256}-${i % 256}.ec2.internal`;
  return [
    { key: 'container.id', value: hex(i, 64) },
    { key: 'container.id.stripped', value: hex(i, 12) },
    { key: 'container.name', value: `${deployment}-${i}` },
    { key: 'container.image', value: `${namespace}/${deployment}:1.${i % 40}.${i % 7}` },
    { key: 'container.engine', value: i % 3 === 0 ? 'docker' : 'containerd' },
    { key: 'container.host', value: node },
    { key: 'container.host/name', value: `prod/${node}` },
    { key: 'k8s.cluster-name', value: 'prod-cluster' },
    { key: 'k8s.namespace', value: namespace },
    { key: 'k8s.deployment', value: deployment },
    { key: 'k8s.pod.name', value: pod },
    { key: 'k8s.container.name', value: deployment },
    { key: 'k8s.label.app', value: deployment },
    { key: 'aws.zone', value: ZONES[i % ZONES.length] },
    { key: 'host.hostname', value: node },
  ];
}

/**
 * `base` (the spec's execution example: preflightPayload()) as a big run: its attack step (steps[1])
 * on `targets` containers, each with 15 attributes (targetAttributeIncludes `*`). 10,000 targets
 * make a body of about 10 MB, the size Steadybit sends for such a run
 * (docs/decisions/0006-body-limit-for-large-runs.md). Shared with the benchmark (bench/large-run-measures.ts).
 */
export function largeRun(base: PreflightPayload, targets: number): PreflightPayload {
  const payload = structuredClone(base);
  const step = (payload.execution.steps as Step[])[1];
  step.radius = { ...step.radius, percentage: 100 };
  step.totalTargetCount = targets;
  step.targetExecutions = Array.from({ length: targets }, (_, i) => ({
    type: 'com.steadybit.extension_container.container',
    name: `containerd://${hex(i, 64)}`,
    state: 'CREATED',
    attributes: containerAttributes(i),
  }));
  return payload;
}
