import { usableRuleKinds } from '../../bench/check-rule-specs';
import { freshStates } from '../../bench/empty-state';
import { generatePolicySet } from '../../bench/generate-policies';
import { payloadVariants } from '../../bench/payload-variants';
import type { PolicyBundle } from '../../src/policy/compiled';
import { evaluate } from '../../src/policy/evaluate';
import { evaluatePolicy } from '../../src/policy/evaluate-policy';
import { buildFacts } from '../../src/policy/facts';
import { loadBundle } from '../../src/policy/load-bundle';
import type { PreflightPayload, StateSnapshot } from '../../src/policy/types';
import { bundleFrom } from '../helpers/test-app';
import { preflightWith } from '../helpers/fixtures';

const NOW = new Date('2026-01-05T10:00:00Z');

/**
 * Each policy of the decision, evaluated on its own with facts of its own (nothing shared with other
 * policies), must give the result the decision lists for it.
 */
function expectSameAsAlone(bundle: PolicyBundle, payload: PreflightPayload, state?: StateSnapshot): number {
  const decision = evaluate(bundle, payload, { now: NOW, decisionId: 'd', state });
  for (const result of decision.results) {
    const policy = bundle.policies.find((p) => p.name === result.policy)!;
    const alone = evaluatePolicy(policy, buildFacts(bundle, payload, { now: NOW, decisionId: 'd', state }), bundle.exceptions);
    expect(JSON.stringify(result)).toBe(JSON.stringify(alone.result));
  }
  return decision.results.length;
}

const policy = (name: string, rules: string, match = '') => `
kind: Policy
name: ${name}
${match}
rules:
${rules}
`;

describe('policies that repeat a rule spec or a scope share its compiled form', () => {
  const bundle = bundleFrom({
    'a.yaml': policy('a', '  - actions: { blocked: ["*stress*"] }\n  - environments: { blocked: [production] }'),
    'b.yaml': policy('b', '  - actions: { blocked: ["*stress*"] }'),
    'c.yaml': policy('c', '  - actions: { blocked: ["*stress*"] }', 'match: { actionKinds: [CHECK] }'),
    'd.yaml': policy('d', '  - actions: { blocked: ["*shutdown*"] }'),
    'e.yaml': policy('e', '  - actions: { blocked: ["*stress*"] }', 'match: { teams: [ADM] }\nexclude: { environments: [sandbox] }'),
    'f.yaml': policy('f', '  - actions: { blocked: ["*shutdown*"] }', 'match: { teams: [ADM] }\nexclude: { environments: [production] }'),
    'g.yaml': policy('g', '  - actions: { blocked: ["*shutdown*"] }', 'match: { teams: [SHOP] }'),
  }, NOW);
  const byName = (name: string) => bundle.policies.find((p) => p.name === name)!;

  test('one compiled check per distinct spec; each policy keeps the path of its own rule', () => {
    expect(byName('b').rules[0].check).toBe(byName('a').rules[0].check);
    expect(byName('c').rules[0].check).toBe(byName('a').rules[0].check);
    expect(byName('d').rules[0].check).not.toBe(byName('a').rules[0].check);
    expect(byName('a').rules[1].path).toBe('rules[1].environments');
    expect(byName('b').rules[0].path).toBe('rules[0].actions');
  });

  test('one compiled scope per distinct match or exclude spec', () => {
    expect(byName('f').match).toBe(byName('e').match);
    expect(byName('g').match).not.toBe(byName('e').match);
    expect(byName('f').exclude).not.toBe(byName('e').exclude);
    expect(byName('b').exclude).toBe(byName('a').exclude);
    expect(byName('g').exclude).toBe(byName('a').exclude);
  });

  test('policies sharing a match scope but not their exclude are skipped each for its own reason', () => {
    const payload = preflightWith((p) => { p.execution.teamKey = 'adm'; p.execution.environment = 'production'; });
    const decision = evaluate(bundle, payload, { now: NOW, decisionId: 'd' });
    const result = (name: string) => decision.results.find((r) => r.policy === name);
    expect(result('e')?.result).toBe('deny');
    expect(result('f')).toMatchObject({ result: 'skipped', reasons: ['excluded: environment production in exclude.environments (production)'] });
    expect(result('g')).toBeUndefined();
    expectSameAsAlone(bundle, payload);
  });

  test('a policy whose step filter leaves other steps is checked on its own steps, not given the shared answer', () => {
    const payload = preflightWith((p) => {
      p.execution.environment = 'production';
      p.execution.steps = [...(p.execution.steps ?? []), { actionId: 'com.steadybit.extension_http.check', actionKind: 'CHECK', parameters: {} }];
    });
    const decision = evaluate(bundle, payload, { now: NOW, decisionId: 'd' });
    const result = (name: string) => decision.results.find((r) => r.policy === name);
    expect(result('a')?.result).toBe('deny');
    expect(result('b')).toMatchObject({ result: 'deny', findings: [{ rule: 'rules[0].actions', step: expect.stringContaining('stress_cpu') }] });
    // c sees only the CHECK step, which its blocked glob does not match.
    expect(result('c')?.result).toBe('pass');
    expect(result('d')?.result).toBe('pass');
    expectSameAsAlone(bundle, payload);
  });

  test('generated policies (repeated specs, every rule kind, messages, modifications) decide as if each were alone', async () => {
    const loaded = loadBundle(generatePolicySet(1000, usableRuleKinds().usable), NOW);
    if (!loaded.ok) throw new Error(loaded.problems[0].message);
    const distinct = new Set(loaded.bundle.policies.flatMap((p) => p.rules.map((r) => r.check)));
    const rules = loaded.bundle.policies.reduce((n, p) => n + p.rules.length, 0);
    expect(distinct.size).toBeLessThan(rules / 2);
    const variants = payloadVariants('secret');
    const states = await freshStates(loaded.bundle, variants);
    let compared = 0;
    variants.forEach((v, i) => { compared += expectSameAsAlone(loaded.bundle, v.payload, states[i]); });
    expect(compared).toBeGreaterThan(100);
  });

  test('an answer shared within one request is never read by the next: decisions in a row equal decisions on fresh bundles', () => {
    const files = generatePolicySet(300, usableRuleKinds().usable);
    const load = () => {
      const loaded = loadBundle(files, NOW);
      if (!loaded.ok) throw new Error(loaded.problems[0].message);
      return loaded.bundle;
    };
    const reused = load();
    const variants = payloadVariants('secret');
    const decide = (bundle: PolicyBundle, payload: PreflightPayload) => JSON.stringify(evaluate(bundle, payload, { now: NOW, decisionId: 'd' }));
    const fresh = variants.map((v) => decide(load(), v.payload));
    // Each variant after every other one, so each request follows one that filled the shared answers differently.
    for (let round = 0; round < 2; round++) {
      variants.forEach((v, i) => expect(decide(reused, v.payload)).toBe(fresh[i]));
    }
    expect(new Set(fresh).size).toBe(variants.length);
  });
});
