import fc from 'fast-check';
import { decide } from '../../src/policy/engine/decide';
import { predicateChecks, predicateClasses, predicateClassOf } from '../../src/prove/predicate-classes';
import type { Doc } from '../../src/prove/policy-set';
import { generatedSize } from '../helpers/test-lane';
import { NOW, setDirs, setOf } from './prove-sets';

/**
 * The predicate classes of docs/decisions/0038: on random predicates of every wire shape the payload
 * schema admits for radius.predicate (any object: groups, not, key/value, presence, value-count,
 * query, agentId, name, types, and shapes the engine cannot read), each blastRadius policy decides
 * the predicate as it decides its class's representative, and the class is one the split lists.
 */
const KEYS = ['k8s.namespace', 'k8s.cluster-name', 'app'];
const VALUES = ['kube-system', 'payments', 'shop', 'Kube-System', 'prove-other-attribute-value'];
const SPECS = [
  '{ requireKeys: [k8s.cluster-name, k8s.namespace], forbidValues: { k8s.namespace: [kube-system] }, denyUnscoped: true }',
  '{ forbidValues: { k8s.namespace: [kube-system, payments], app: [shop] }, onUnknownShape: ignore }',
  '{ requireKeys: [app], denyUnscoped: true, onUnknownShape: ignore }',
  '{ denyUnscoped: true }',
];

const key = fc.constantFrom(...KEYS);
const values = fc.array(fc.constantFrom(...VALUES), { minLength: 0, maxLength: 3 });
const leaf = fc.oneof(
  fc.record({
    key,
    operator: fc.constantFrom(
      'EQUALS',
      'NOT_EQUALS',
      'EQUALS_IGNORE_CASE',
      'CONTAINS',
      'STARTS_WITH',
      'NOT_ENDS_WITH',
      'MATCHES',
    ),
    values,
  }),
  fc.record({ key, presenceOperator: fc.constantFrom('PRESENT', 'NOT_PRESENT', 'MAYBE') }),
  fc.record({
    key,
    valueCountOperator: fc.constantFrom('EQUAL', 'LESS_THAN', 'GREATER_THAN'),
    value: fc.oneof(fc.nat(3), fc.constant('2')),
  }),
  fc.record({ query: fc.constant('k8s.namespace="shop"') }),
  fc.record({ agentId: fc.constant('agent-1') }),
  fc.record({ name: fc.constant('pod-1') }),
  fc.record({ types: fc.constant(['com.steadybit.extension_kubernetes.kubernetes-deployment']) }),
  fc.constantFrom({}, { key: 'app' }, { key: 'app', operator: 'EQUALS', values: 'shop' }, { name: 'x', types: [] }),
);
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({
      operator: fc.constantFrom('AND', 'OR', 'and', 'XOR'),
      predicates: fc.array(tie('tree'), { maxLength: 3 }),
    }),
    fc.record({ not: tie('tree') }),
  ),
}));

describe('radius.predicate classes (blastRadius)', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const files = Object.fromEntries(
    SPECS.map((spec, i) => [`g${i}.yaml`, `kind: Policy\nname: g${i}\nrules:\n  - blastRadius: ${spec}\n`]),
  );
  const set = setOf(dirs.write(files));
  const checks = predicateChecks([...set.policies.values()] as Doc[]);
  const split = predicateClasses(checks);
  const byClass = new Map(split.values.map((p) => [predicateClassOf(p, checks), p]));
  /** Which of the policies deny a one-step run whose step sends this predicate (none: no predicate). */
  const denying = (predicate: unknown) => {
    const step = { actionKind: 'ATTACK', ...(predicate === undefined ? {} : { radius: { predicate } }) };
    const payload = { event: 'experiment.execution.preflight', execution: { id: 1, steps: [step] } };
    const facts = { state: { emergencyStop: { engaged: false } }, signals: {}, teams: {} };
    const d = decide(set.bundle, payload as never, facts, NOW, { decisionId: 't' });
    return d.results.filter((r) => r.result === 'deny').map((r) => r.policy);
  };

  it('splits every class of the four rules, each with a predicate of its own', () => {
    expect(split.complete).toBe(true);
    expect(checks.rules).toHaveLength(SPECS.length);
    // Not sent (the class of a predicate with no condition, but a value of its own: it sends no
    // radius), then one predicate per class: no class twice.
    expect(split.values[0]).toBeUndefined();
    expect(byClass.size).toBe(split.values.length - 1);
  });

  it('on random predicates each rule decides as on its class, a class the split lists', () => {
    let classes = 0;
    const seen = new Set<string>();
    fc.assert(
      fc.property(tree, (predicate) => {
        const cls = predicateClassOf(predicate, checks);
        if (!seen.has(cls)) classes++;
        seen.add(cls);
        expect(byClass.has(cls)).toBe(true);
        expect(denying(predicate)).toEqual(denying(byClass.get(cls)));
      }),
      { numRuns: generatedSize(2_000, 500), seed: 38 },
    );
    // The random predicates reach several classes, not one.
    expect(classes).toBeGreaterThan(3);
  });
});
