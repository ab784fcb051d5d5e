import { usableRuleKinds } from '../helpers/policy-sets/usable-rule-kinds';
import { freshFacts } from '../helpers/policy-sets/fresh-facts';
import { generatePolicySet } from '../helpers/policy-sets/generate-policies';
import { benchPayloads } from '../helpers/policy-sets/bench-payloads';
import type { PolicyBundle } from '../../src/policy/core/compiled';
import { decide as decideRun } from '../../src/policy/engine/decide';
import { evaluatePolicy } from '../../src/policy/engine/evaluate-policy';
import { createContext } from '../../src/policy/engine/create-context';
import { sharingKey } from '../../src/policy/compile/shared-parts';
import { loadBundle } from '../../src/policy/loading/load-bundle';
import type { SourceFile } from '../../src/policy/compile/yaml-source';
import type { Facts } from '../../src/policy/facts/facts';
import type { PreflightPayload } from '../../src/policy/core/decision';
import { bundleFrom } from '../helpers/bundle-from';
import { assembleBundle } from '../../src/policy/compile/assemble-bundle';
import { emergencyStopPolicy, withBuiltIns } from '../../src/policy/compile/built-in-policies';
import { preflightPayload, preflightWith } from '../helpers/fixtures';
import { generatedSize } from '../helpers/test-lane';

const NOW = new Date('2026-01-05T10:00:00Z');

/**
 * Each policy of the decision, loaded on its own from its own file (so it shares nothing with other
 * policies) and evaluated with facts of its own, must give the result the decision lists for it.
 * Files without a policy (environment aliases) are loaded with it.
 */
function expectSameAsAlone(
  bundle: PolicyBundle,
  sources: readonly SourceFile[],
  payload: PreflightPayload,
  facts: Facts = {},
): number {
  const decision = decideRun(bundle, payload, facts, NOW, { decisionId: 'd' });
  const common = sources.filter((f) => !/^kind: Policy$/m.test(f.text));
  for (const result of decision.results) {
    const file = bundle.policies.find((p) => p.name === result.policy)!.source.file;
    const loaded = loadBundle([...common, sources.find((f) => f.file === file)!], NOW);
    if (!loaded.ok) throw new Error(loaded.problems[0].message);
    const alone = evaluatePolicy(
      loaded.bundle.policies[0],
      createContext(loaded.bundle, payload, facts, NOW, 'd'),
      loaded.bundle.exceptionsByPolicy,
    );
    expect(JSON.stringify(result)).toBe(JSON.stringify(alone.result));
  }
  return decision.results.length;
}

const sourcesOf = (files: Record<string, string>): SourceFile[] =>
  Object.entries(files).map(([file, text]) => ({ file, text }));

const policy = (name: string, rules: string, match = '') => `
kind: Policy
name: ${name}
${match}
rules:
${rules}
`;

describe('policies that repeat a rule spec or a scope share its compiled form', () => {
  const files = {
    'a.yaml': policy('a', '  - actions: { blocked: ["*stress*"] }\n  - environments: { blocked: [production] }'),
    'b.yaml': policy('b', '  - actions: { blocked: ["*stress*"] }'),
    'c.yaml': policy('c', '  - actions: { blocked: ["*stress*"] }', 'match: { actionKinds: [CHECK] }'),
    'd.yaml': policy('d', '  - actions: { blocked: ["*shutdown*"] }'),
    'e.yaml': policy(
      'e',
      '  - actions: { blocked: ["*stress*"] }',
      'match: { teams: [ADM] }\nexclude: { environments: [sandbox] }',
    ),
    'f.yaml': policy(
      'f',
      '  - actions: { blocked: ["*shutdown*"] }',
      'match: { teams: [ADM] }\nexclude: { environments: [production] }',
    ),
    'g.yaml': policy('g', '  - actions: { blocked: ["*shutdown*"] }', 'match: { teams: [SHOP] }'),
  };
  const bundle = bundleFrom(files, NOW);
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

  test('a check that rules share gets one answer slot, numbered 0..sharedChecks-1 in bundle order; a check of one rule none', () => {
    const slots = (name: string) => byName(name).rules.map((r) => r.answerSlot);
    // *stress* is asked by a, b, c and e; *shutdown* by d, f and g; production only by a.
    expect(bundle.sharedChecks).toBe(2);
    expect(slots('a')).toEqual([slots('b')[0], undefined]);
    expect(new Set(['a', 'b', 'c', 'e'].map((n) => slots(n)[0]))).toEqual(new Set([slots('a')[0]]));
    expect(new Set(['d', 'f', 'g'].map((n) => slots(n)[0]))).toEqual(new Set([slots('d')[0]]));
    expect(new Set([slots('a')[0], slots('d')[0]])).toEqual(new Set([0, 1]));
  });

  test('assembling again numbers the slots again, and leaves the bundle it came from as it was', () => {
    const before = bundle.policies.map((p) => p.rules.map((r) => r.answerSlot));
    const shutdown = byName('d').rules[0].answerSlot;
    const part = assembleBundle({
      ...bundle,
      policies: bundle.policies.filter((p) => ['d', 'f', 'g'].includes(p.name)),
    });
    expect(part.sharedChecks).toBe(1);
    expect(part.policies.map((p) => p.rules[0].answerSlot)).toEqual([0, 0, 0]);
    expect(shutdown).not.toBe(0);
    expect(bundle.policies.map((p) => p.rules.map((r) => r.answerSlot))).toEqual(before);
    // The built-in's check is its own: it shares nothing, and the set's shared checks keep theirs.
    const both = withBuiltIns(bundle, [emergencyStopPolicy()]);
    expect(both.sharedChecks).toBe(2);
    expect(both.policies[0].rules[0].answerSlot).toBeUndefined();
    expect(bundle.policies.map((p) => p.rules.map((r) => r.answerSlot))).toEqual(before);
  });

  test('policies sharing a match scope but not their exclude are skipped each for its own reason', () => {
    const payload = preflightWith((p) => {
      p.execution.teamKey = 'adm';
      p.execution.environment = 'production';
    });
    const decision = decideRun(bundle, payload, {}, NOW, { decisionId: 'd' });
    const result = (name: string) => decision.results.find((r) => r.policy === name);
    expect(result('e')?.result).toBe('deny');
    expect(result('f')).toMatchObject({
      result: 'skipped',
      reasons: ['excluded: environment production in exclude.environments (production)'],
    });
    expect(result('g')).toBeUndefined();
    expectSameAsAlone(bundle, sourcesOf(files), payload);
  });

  test('a policy whose step filter leaves other steps is checked on its own steps, not given the shared answer', () => {
    const payload = preflightWith((p) => {
      p.execution.environment = 'production';
      p.execution.steps = [
        ...(p.execution.steps ?? []),
        { actionId: 'com.steadybit.extension_http.check', actionKind: 'CHECK', parameters: {} },
      ];
    });
    const decision = decideRun(bundle, payload, {}, NOW, { decisionId: 'd' });
    const result = (name: string) => decision.results.find((r) => r.policy === name);
    expect(result('a')?.result).toBe('deny');
    expect(result('b')).toMatchObject({
      result: 'deny',
      findings: [{ rule: 'rules[0].actions', step: expect.stringContaining('stress_cpu') }],
    });
    // c sees only the CHECK step, which its blocked glob does not match.
    expect(result('c')?.result).toBe('pass');
    expect(result('d')?.result).toBe('pass');
    expectSameAsAlone(bundle, sourcesOf(files), payload);
  });

  test('generated policies (repeated specs, every rule kind, messages, modifications) decide as if each were alone', async () => {
    const files = generatePolicySet(generatedSize(1000, 200), usableRuleKinds().usable);
    const loaded = loadBundle(files, NOW);
    if (!loaded.ok) throw new Error(loaded.problems[0].message);
    const distinct = new Set(loaded.bundle.policies.flatMap((p) => p.rules.map((r) => r.check)));
    const rules = loaded.bundle.policies.reduce((n, p) => n + p.rules.length, 0);
    expect(distinct.size).toBeLessThan(rules / 2);
    const variants = benchPayloads();
    const states = await freshFacts(loaded.bundle, variants);
    let compared = 0;
    variants.forEach((v, i) => {
      compared += expectSameAsAlone(loaded.bundle, files, v.payload, states[i]);
    });
    expect(compared).toBeGreaterThan(100);
  });

  test('specs JSON cannot tell apart are not shared: .inf, -.inf and .nan are not null, -0 is not 0', () => {
    const condition = (name: string, expression: string) =>
      policy(name, `  - condition: { deny: ${expression}, reason: "${name}" }`);
    const odd = {
      'null.yaml': condition('with-null', '{ "<": [ { var: "targets.total" }, null ] }'),
      'inf.yaml': condition('with-inf', '{ "<": [ { var: "targets.total" }, .inf ] }'),
      'minus-inf.yaml': condition('with-minus-inf', '{ ">": [ { var: "targets.total" }, -.inf ] }'),
      'nan.yaml': condition('with-nan', '{ "<": [ { var: "targets.total" }, .nan ] }'),
      'zero.yaml': condition('with-zero', '{ "<": [ { "/": [1, 0] }, 0 ] }'),
      'minus-zero.yaml': condition('with-minus-zero', '{ "<": [ { "/": [1, -0] }, 0 ] }'),
    };
    const oddBundle = bundleFrom(odd, NOW);
    const checks = new Set(oddBundle.policies.map((p) => p.rules[0].check));
    expect(checks.size).toBe(6);
    const decision = decideRun(oddBundle, preflightPayload(), {}, NOW, { decisionId: 'd' });
    expect(Object.fromEntries(decision.results.map((r) => [r.policy, r.result]))).toMatchObject({
      'with-null': 'pass',
      'with-inf': 'deny',
      'with-minus-inf': 'deny',
      'with-zero': 'pass',
      'with-minus-zero': 'deny',
    });
    expectSameAsAlone(oddBundle, sourcesOf(odd), preflightPayload());
    expect(sharingKey({ a: [1, 'x', null, true] })).toBe('{"a":[1,"x",null,true]}');
    expect(sharingKey({ a: Number.POSITIVE_INFINITY })).toBeUndefined();
    expect(sharingKey([-0])).toBeUndefined();
    expect(sharingKey({ at: new Date(0) })).toBeUndefined();
  });

  test('a shared check that throws fails every policy that shares it, closed', () => {
    const twice = {
      'one.yaml': policy('one', '  - environments: { blocked: [production] }'),
      'two.yaml': policy('two', '  - environments: { blocked: [production] }'),
    };
    const loaded = bundleFrom(twice, NOW);
    const shared = loaded.policies[0].rules[0];
    expect(loaded.policies[1].rules[0].check).toBe(shared.check);
    const check = () => {
      throw new Error('rule bug');
    };
    const broken = { ...loaded, policies: loaded.policies.map((p) => ({ ...p, rules: [{ ...p.rules[0], check }] })) };
    const decision = decideRun(broken, preflightPayload(), {}, NOW, { decisionId: 'd' });
    expect(decision.allowed).toBe(false);
    expect(decision.results.map((r) => [r.policy, r.result, r.findings?.[0]?.undecidable])).toEqual([
      ['one', 'deny', true],
      ['two', 'deny', true],
    ]);
  });

  test('a shared check that throws is asked once in that request: every policy sharing it fails closed on that error, never on a retry', () => {
    const twice = {
      'one.yaml': policy('one', '  - environments: { blocked: [production] }'),
      'two.yaml': policy('two', '  - environments: { blocked: [production] }'),
    };
    const loaded = bundleFrom(twice, NOW);
    const shared = loaded.policies[0].rules[0];
    let calls = 0;
    // Throws on its second call only: a retry by the second policy would pass.
    const check: typeof shared.check = (input) => {
      calls++;
      if (calls === 2) throw new Error('rule bug');
      return shared.check(input);
    };
    const flaky = { ...loaded, policies: loaded.policies.map((p) => ({ ...p, rules: [{ ...p.rules[0], check }] })) };
    const decide = () => decideRun(flaky, preflightPayload(), {}, NOW, { decisionId: 'd' });
    expect(decide().allowed).toBe(true);
    expect(calls).toBe(1);
    const failing = decide();
    expect(calls).toBe(2);
    expect(failing.allowed).toBe(false);
    expect(failing.results.map((r) => [r.policy, r.result, r.findings?.[0]?.undecidable])).toEqual([
      ['one', 'deny', true],
      ['two', 'deny', true],
    ]);
    expect(failing.results[1].reasons[0]).toContain('rule bug');
    expect(decide().allowed).toBe(true);
  });

  test('a shared check that throws undefined still fails closed for every policy sharing it, and the next request is checked again', () => {
    const twice = {
      'one.yaml': policy('one', '  - environments: { blocked: [production] }'),
      'two.yaml': policy('two', '  - environments: { blocked: [production] }'),
    };
    const loaded = bundleFrom(twice, NOW);
    const shared = loaded.policies[0].rules[0];
    expect(shared.answerSlot).toBe(0);
    let calls = 0;
    const check: typeof shared.check = (input) => {
      calls++;
      // eslint-disable-next-line no-throw-literal -- the case under test: a throw of no error at all
      if (calls === 2) throw undefined;
      return shared.check(input);
    };
    const flaky = { ...loaded, policies: loaded.policies.map((p) => ({ ...p, rules: [{ ...p.rules[0], check }] })) };
    const decide = () => decideRun(flaky, preflightPayload(), {}, NOW, { decisionId: 'd' });
    expect(decide().allowed).toBe(true);
    const failing = decide();
    expect(calls).toBe(2);
    expect(failing.allowed).toBe(false);
    expect(failing.results.map((r) => [r.policy, r.result, r.findings?.[0]?.undecidable])).toEqual([
      ['one', 'deny', true],
      ['two', 'deny', true],
    ]);
    expect(decide().allowed).toBe(true);
  });

  test("a rule whose slot holds another check's answer (a bundle not numbered by assembleBundle) is asked itself", () => {
    const twice = {
      'one.yaml': policy('one', '  - environments: { blocked: [production] }'),
      'two.yaml': policy('two', '  - environments: { blocked: [production] }'),
    };
    const loaded = bundleFrom(twice, NOW);
    expect(loaded.policies.map((p) => p.rules[0].answerSlot)).toEqual([0, 0]);
    // Policy two's rule keeps slot 0 but gets a check of its own that denies every run.
    const denyAll: (typeof loaded.policies)[0]['rules'][0]['check'] = () => ({
      found: [{ reason: 'denied by its own check' }],
    });
    const byHand = {
      ...loaded,
      policies: [
        loaded.policies[0],
        { ...loaded.policies[1], rules: [{ ...loaded.policies[1].rules[0], check: denyAll }] },
      ],
    };
    const decision = decideRun(byHand, preflightPayload(), {}, NOW, { decisionId: 'd' });
    expect(decision.results.map((r) => [r.policy, r.result, r.reasons[0]])).toEqual([
      ['one', 'pass', 'passed: rules[0].environments'],
      ['two', 'deny', 'denied by its own check'],
    ]);
  });

  test('an answer shared within one request is never read by the next: decisions in a row equal decisions on fresh bundles', () => {
    const files = generatePolicySet(generatedSize(300, 100), usableRuleKinds().usable);
    const load = () => {
      const loaded = loadBundle(files, NOW);
      if (!loaded.ok) throw new Error(loaded.problems[0].message);
      return loaded.bundle;
    };
    const reused = load();
    const variants = benchPayloads();
    const decide = (bundle: PolicyBundle, payload: PreflightPayload) =>
      JSON.stringify(decideRun(bundle, payload, {}, NOW, { decisionId: 'd' }));
    const fresh = variants.map((v) => decide(load(), v.payload));
    // Each variant after every other one, so each request follows one that filled the shared answers differently.
    for (let round = 0; round < 2; round++) {
      variants.forEach((v, i) => expect(decide(reused, v.payload)).toBe(fresh[i]));
    }
    expect(new Set(fresh).size).toBe(variants.length);
  });
});
