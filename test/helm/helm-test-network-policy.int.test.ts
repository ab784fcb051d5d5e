import { find, render, type Manifest } from './render-chart';

/**
 * `helm test` with the chart's own NetworkPolicy: the test pod must reach the Service, and must be
 * neither one of the Service's endpoints (it would answer its own request) nor a pod whose egress
 * the policy restricts. Checked with Kubernetes' label-selector semantics (matchLabels is a subset).
 */
type Labels = Record<string, string>;
interface Peer {
  podSelector?: { matchLabels?: Labels };
  namespaceSelector?: { matchLabels?: Labels };
}
interface Policy {
  podSelector: { matchLabels: Labels };
  ingress: { from?: Peer[] }[];
}

const selects = (selector: Labels | undefined, labels: Labels) =>
  Object.entries(selector ?? {}).every(([k, v]) => labels[k] === v);
/** A peer admits a pod of the policy's own namespace when it has no namespaceSelector and its podSelector matches. */
const admits = (rule: { from?: Peer[] }, labels: Labels) =>
  rule.from === undefined ||
  rule.from.some(
    (p) =>
      (p.namespaceSelector === undefined || Object.keys(p.namespaceSelector.matchLabels ?? {}).length === 0) &&
      selects(p.podSelector?.matchLabels, labels),
  );

const RESTRICTED = {
  'webhook.secret': 'x',
  'networkPolicy.enabled': 'true',
  'networkPolicy.ingressFrom[0].namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name': 'ingress-nginx',
  'networkPolicy.egress[0].ports[0].port': '53',
  'networkPolicy.egress[0].ports[0].protocol': 'UDP',
};

function parts(manifests: Manifest[]) {
  const pod = find(manifests, 'Pod');
  const policy = find(manifests, 'NetworkPolicy').spec as unknown as Policy;
  const service = find(manifests, 'Service').spec as { selector: Labels };
  return { labels: pod.metadata.labels ?? {}, policy, service };
}

describe('helm test with the chart NetworkPolicy', () => {
  it('ingress restricted to the ingress controller, egress restricted: the test pod is admitted and not restricted', () => {
    const { labels, policy, service } = parts(render(RESTRICTED));
    expect(policy.ingress[0].from?.[0]).toEqual({
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } },
    });
    expect(admits(policy.ingress[0], labels)).toBe(true);
    expect(selects(policy.podSelector.matchLabels, labels)).toBe(false);
    expect(selects(service.selector, labels)).toBe(false);
    expect(labels).toMatchObject({ 'app.kubernetes.io/component': 'helm-test', 'app.kubernetes.io/instance': 'pg' });
  });

  it('the gate pods stay selected, and another pod of the namespace is still refused', () => {
    const manifests = render(RESTRICTED);
    const { policy, service } = parts(manifests);
    const gate = (find(manifests, 'Deployment').spec as { template: { metadata: { labels: Labels } } }).template
      .metadata.labels;
    expect([selects(policy.podSelector.matchLabels, gate), selects(service.selector, gate)]).toEqual([true, true]);
    expect(admits(policy.ingress[0], { app: 'something-else' })).toBe(false);
  });

  it('ingressFrom empty leaves ingress open (no from), and without helm test no peer is added', () => {
    const open = parts(render({ ...RESTRICTED, 'networkPolicy.ingressFrom': 'null' })).policy;
    expect(open.ingress[0].from).toBeUndefined();
    const noTest = render({ ...RESTRICTED, 'helmTest.enabled': 'false' });
    expect((find(noTest, 'NetworkPolicy').spec as unknown as Policy).ingress[0].from).toHaveLength(1);
  });
});
