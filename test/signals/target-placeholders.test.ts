import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Attribute, PreflightPayload, Target } from '../../src/payload/types';
import { decide } from '../../src/policy/engine/decide';
import type { Facts } from '../../src/policy/facts/facts';
import { actionSteps } from '../../src/policy/engine/action-steps';
import { attackedValues, MAX_TARGET_VALUES } from '../../src/policy/signals/attacked-values';
import { signalFactSource } from '../../src/signals/signal-fact-source';
import type { ResolvedSignalNeed } from '../../src/policy/facts/signal-need';
import type { SignalFacts } from '../../src/policy/facts/signal-facts';
import { NOW, policyDocument, problemsOf, withAttack } from '../helpers/decide-harness';
import { FIXTURES } from '../helpers/fixtures';
import { bundleFrom } from '../helpers/bundle-from';

/** Pods as Steadybit's Kubernetes extension sends them (test/fixtures/steadybit-targets/README.md). */
const PODS = JSON.parse(readFileSync(join(FIXTURES, 'steadybit-targets', 'k8s-pods.json'), 'utf8')) as Target[];
const [CHECKOUT_A, CHECKOUT_B, , CART_A, , LEDGER] = PODS;
const attacking = (...targets: Target[]) =>
  withAttack((s) => {
    s.targetExecutions = structuredClone(targets);
    s.totalTargetCount = targets.length;
  });
const BUDGET =
  'prometheus: {query: \'slo:period_error_budget_remaining:ratio{sloth_service="{{target.k8s.deployment}}"}\', denyWhen: "<= 0"}';
const q = (service: string) => `slo:period_error_budget_remaining:ratio{sloth_service="${service}"}`;
const vector = (value: string) => ({
  resultType: 'vector' as const,
  result: [{ metric: {}, value: [1767607198, value] as [number, string] }],
});

/** The decision of one policy with `rule` on `payload` with the given signal facts: its result and reasons. */
function judged(rule: string, payload: PreflightPayload, signals: SignalFacts): { result: string; reasons: string[] } {
  const decision = decide(bundleFrom({ 'p.yaml': policyDocument(rule) }, NOW), payload, { signals } as Facts, NOW, {
    decisionId: 'd-1',
  });
  const r = decision.results.find((x) => x.policy === 'p');
  return { result: r?.result ?? 'none', reasons: r?.result === 'pass' ? [] : (r?.reasons ?? []) };
}

/** What the signal fact source asks before the decision, for one policy and payload. */
async function asked(rule: string, payload: PreflightPayload): Promise<string[]> {
  const bundle = bundleFrom({ 'p.yaml': policyDocument(rule) }, NOW);
  const seen: ResolvedSignalNeed[] = [];
  const source = signalFactSource(async (needs) => {
    seen.push(...needs);
    return {};
  });
  await source.gather(bundle.needs, payload, NOW);
  return seen.map((n) => (n.kind === 'prometheus' ? n.query : `alerts of ${n.source}`));
}

describe('{{target.<attribute>}} placeholders: one query per distinct value the run attacks', () => {
  it('asks once per distinct deployment, in the order the targets list them', async () => {
    expect(await asked(BUDGET, attacking(CHECKOUT_A, CART_A, CHECKOUT_B))).toEqual([q('checkout'), q('cart')]);
  });

  it('escapes the value inside the label value', async () => {
    const odd = { ...CART_A, attributes: [{ key: 'k8s.deployment', value: 'a"} or vector(1) #' }] };
    expect(await asked(BUDGET, attacking(odd))).toEqual([
      'slo:period_error_budget_remaining:ratio{sloth_service="a\\"} or vector(1) #"}',
    ]);
  });

  it('a value sent several times on one target (k8s.service.name) is asked for each', async () => {
    const rule = 'prometheus: {query: \'up{service="{{target.k8s.service.name}}"}\'}';
    expect(await asked(rule, attacking(CART_A))).toEqual(['up{service="cart"}', 'up{service="cart-internal"}']);
  });

  it('a run attacking more distinct values than the cap asks nothing and cannot decide', async () => {
    const many = Array.from({ length: MAX_TARGET_VALUES + 1 }, (_, i) => ({
      ...CHECKOUT_A,
      name: `pod-${i}`,
      attributes: [{ key: 'k8s.deployment', value: `svc-${i}` }],
    }));
    expect(await asked(BUDGET, attacking(...many))).toEqual([]);
    const { result, reasons } = judged(BUDGET, attacking(...many), {});
    expect(result).toBe('deny');
    expect(reasons).toEqual([
      `cannot decide: the run acts on 21 values of k8s.deployment (svc-0, svc-1, svc-2, svc-3, svc-4, and 16 more), more than the ${MAX_TARGET_VALUES} one signal rule asks about (one query each); narrow the run or the rule (docs/attacked-services.md)`,
    ]);
  });

  it('exactly the cap is asked', async () => {
    const many = Array.from({ length: MAX_TARGET_VALUES }, (_, i) => ({
      ...CHECKOUT_A,
      name: `pod-${i}`,
      attributes: [{ key: 'k8s.deployment', value: `svc-${i}` }],
    }));
    expect(await asked(BUDGET, attacking(...many))).toHaveLength(MAX_TARGET_VALUES);
  });

  it('combined with {{environment}}: one query per environment and value', async () => {
    const rule = 'prometheus: {query: \'up{env="{{environment}}", app="{{target.k8s.deployment}}"}\'}';
    const payload = attacking(CHECKOUT_A, CART_A);
    payload.execution.environment = 'prod';
    expect(await asked(rule, payload)).toEqual(['up{env="prod", app="checkout"}', 'up{env="prod", app="cart"}']);
  });

  it('counts values in one pass over the targets of every targeted step', () => {
    const values = attackedValues(
      actionSteps(attacking(CHECKOUT_A, CART_A, { ...LEDGER, attributes: [] }).execution.steps),
      'k8s.deployment',
    );
    expect(values).toEqual(expect.objectContaining({ values: ['checkout', 'cart'], withoutCount: 1 }));
  });
});

describe('{{target.<attribute>}} in the decision', () => {
  const budgets = (checkout: string, cart: string): SignalFacts => ({
    prometheus: { default: { [q('checkout')]: vector(checkout), [q('cart')]: vector(cart) } },
  });

  it.each([
    ['both services have budget left', budgets('0.4', '0.1'), 'pass', []],
    [
      'a spent budget denies, naming the service',
      budgets('0.4', '-0.02'),
      'deny',
      [`query ${q('cart')} on prometheus "default" returned -0.02 <= 0`],
    ],
    [
      'a service not read cannot decide',
      { prometheus: { default: { [q('checkout')]: vector('0.4') } } },
      'deny',
      [`cannot decide: query ${q('cart')} on prometheus "default" was not run (no signal facts for it)`],
    ],
  ])('%s', (_name, signals, result, reasons) => {
    expect(judged(BUDGET, attacking(CHECKOUT_A, CART_A), signals)).toEqual({ result, reasons });
  });

  it('a target without the attribute cannot decide, saying what to send; the others are still judged', () => {
    const noDeployment: Target = {
      ...LEDGER,
      attributes: (LEDGER.attributes as Attribute[]).filter((a) => a.key !== 'k8s.deployment'),
    };
    const { reasons } = judged(BUDGET, attacking(CHECKOUT_A, noDeployment), {
      prometheus: { default: { [q('checkout')]: vector('-1') } },
    });
    expect(reasons).toEqual([
      `cannot decide: 1 target of the run carries no k8s.deployment (target ${LEDGER.name}), so the signal cannot be asked about it; add k8s.deployment to the preflight webhook's targetAttributeIncludes (or "*" for all attributes) so Steadybit sends it, or set whenMissing: allow`,
      `query ${q('checkout')} on prometheus "default" returned -1 <= 0`,
    ]);
  });

  it('whenMissing: allow asks about the values sent only', () => {
    const rule = BUDGET.replace('denyWhen: "<= 0"', 'denyWhen: "<= 0", whenMissing: allow');
    expect(
      judged(rule, attacking(CHECKOUT_A, { ...LEDGER, attributes: [] }), {
        prometheus: { default: { [q('checkout')]: vector('0.3') } },
      }),
    ).toEqual({ result: 'pass', reasons: [] });
  });

  it('a step not listing all its targets cannot decide', () => {
    const payload = withAttack((s) => {
      s.targetExecutions = structuredClone([CHECKOUT_A]);
      s.totalTargetCount = 3;
    });
    expect(judged(BUDGET, payload, { prometheus: { default: { [q('checkout')]: vector('0.3') } } }).reasons).toEqual([
      expect.stringMatching(
        /^cannot decide: step .* does not list all its targets, so the k8s.deployment values the run acts on are not all known$/,
      ),
    ]);
  });

  it('alerts matchers: an alert of an attacked service denies, one of another service does not', () => {
    const rule = 'alerts: {matchers: [\'severity="critical"\', \'service="{{target.k8s.service.name}}"\']}';
    const alerts = (service: string): SignalFacts => ({
      alertmanager: { default: { alerts: [{ labels: { alertname: 'HighLatency', severity: 'critical', service } }] } },
    });
    expect(judged(rule, attacking(CHECKOUT_A), alerts('cart')).result).toBe('pass');
    expect(judged(rule, attacking(CHECKOUT_A, CART_A), alerts('cart-internal')).reasons).toEqual([
      '1 alert matching {severity="critical", service="cart-internal"} firing in alertmanager "default": HighLatency{service="cart-internal",severity="critical"}',
    ]);
  });

  it('a run attacking nothing with the attribute asks nothing and passes', () => {
    const payload = withAttack((s) => {
      s.targetExecutions = [];
      s.totalTargetCount = 0;
    });
    expect(judged(BUDGET, payload, {})).toEqual({ result: 'pass', reasons: [] });
  });
});

describe('{{target.<attribute>}} when loading', () => {
  it.each([
    [
      'whenMissing without a target placeholder',
      'prometheus: {query: \'up{env="{{environment}}"}\', whenMissing: allow}',
      'whenMissing is about targets',
    ],
    ['an empty attribute', 'prometheus: {query: \'up{app="{{target.}}"}\'}', 'malformed placeholder'],
    [
      'a target placeholder outside a label value',
      "prometheus: {query: '{{target.k8s.deployment}}'}",
      'must sit inside a double-quoted label value',
    ],
  ])('%s is a load error', (_name, rule, message) => {
    expect(
      problemsOf(policyDocument(rule))
        .map((p) => p.message)
        .join('\n'),
    ).toContain(message);
  });
});
