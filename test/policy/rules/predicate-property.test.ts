import fc from 'fast-check';
import { admitsValue, pinsKey } from '../../../src/policy/predicate/judge-path';
import { KEY_VALUE_OPERATORS } from '../../../src/policy/predicate/key-value-operators';
import { parsePredicate } from '../../../src/policy/predicate/parse-predicate';
import { toPaths } from '../../../src/policy/predicate/to-paths';
import { generatedSize } from '../../helpers/test-lane';

/**
 * Soundness of the predicate judgement against a reference evaluator: when every way through a
 * random tree pins k8s.namespace and rejects kube-system, no target in kube-system (and none
 * without a namespace) can match the tree, whatever the opaque leaves (query, name) say.
 */
const NS = 'k8s.namespace';
const VALUES = ['kube-system', 'Kube-System', 'shop', 'kube', 'system', 'default'];
const OPERATORS = [...KEY_VALUE_OPERATORS.keys()];

interface Target {
  attrs: Record<string, string | undefined>;
  name: string;
  query: boolean;
}
type Node = Record<string, unknown>;

/** Pins on the namespace are common in real predicates; weight them so safe trees occur often. */
const pin: fc.Arbitrary<Node> = fc.record({
  key: fc.constant(NS),
  operator: fc.constantFrom('EQUALS', 'EQUALS_IGNORE_CASE'),
  values: fc.subarray(VALUES, { minLength: 1, maxLength: 2 }),
});

const leaf: fc.Arbitrary<Node> = fc.oneof(
  { arbitrary: pin, weight: 4 },
  fc.record({
    key: fc.constantFrom(NS, 'k8s.cluster-name'),
    operator: fc.constantFrom(...OPERATORS),
    values: fc.subarray(VALUES, { minLength: 1, maxLength: 2 }),
  }),
  fc.record({
    key: fc.constantFrom(NS, 'k8s.cluster-name'),
    presenceOperator: fc.constantFrom('PRESENT', 'NOT_PRESENT'),
  }),
  fc.record({
    key: fc.constant(NS),
    valueCountOperator: fc.constantFrom(
      'EQUAL',
      'NOT_EQUAL',
      'GREATER_THAN',
      'LESS_THAN',
      'LESS_THAN_OR_EQUAL',
      'GREATER_THAN_OR_EQUAL',
    ),
    value: fc.constantFrom('0', '1', '2'),
  }),
  fc.record({ name: fc.constantFrom('a', 'b') }),
  fc.record({ query: fc.constant('opaque') }),
);

const tree = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ operator: fc.constantFrom('AND', 'OR'), predicates: fc.array(tie('node'), { maxLength: 3 }) }),
    fc.record({ not: tie('node') }),
  ),
})).node;

const target: fc.Arbitrary<Target> = fc.record({
  attrs: fc.record({
    [NS]: fc.option(fc.constantFrom(...VALUES), { nil: undefined }),
    'k8s.cluster-name': fc.option(fc.constantFrom(...VALUES), { nil: undefined }),
  }),
  name: fc.constantFrom('a', 'b'),
  query: fc.boolean(),
});

/** What Steadybit would select: the reference the judgement must never contradict. */
function matches(n: Node, t: Target): boolean {
  if ('predicates' in n) {
    const kids = n.predicates as Node[];
    if (kids.length === 0) return true;
    return n.operator === 'AND' ? kids.every((k) => matches(k, t)) : kids.some((k) => matches(k, t));
  }
  if ('not' in n) return !matches(n.not as Node, t);
  if ('query' in n) return t.query;
  if ('name' in n) return t.name === n.name;
  const value = t.attrs[n.key as string];
  if ('presenceOperator' in n) return (value !== undefined) === (n.presenceOperator === 'PRESENT');
  if ('valueCountOperator' in n) {
    const c = value === undefined ? 0 : 1;
    const v = Number(n.value);
    return (
      {
        EQUAL: c === v,
        NOT_EQUAL: c !== v,
        GREATER_THAN: c > v,
        GREATER_THAN_OR_EQUAL: c >= v,
        LESS_THAN: c < v,
        LESS_THAN_OR_EQUAL: c <= v,
      }[n.valueCountOperator as string] ?? true
    );
  }
  const op = n.operator as string;
  // A target without the key: positive operators fail, NOT_ operators hold (they are complements).
  if (value === undefined) return op.startsWith('NOT_');
  return KEY_VALUE_OPERATORS.get(op)?.test(value, n.values as string[]) ?? true;
}

describe('predicate judgement is sound against a reference evaluator', () => {
  test('pinned and rejecting kube-system on every way => no kube-system target and no target without a namespace matches', () => {
    fc.assert(
      fc.property(tree, target, (node, t) => {
        const paths = toPaths(parsePredicate(node));
        const safe = paths.every(
          (p) => pinsKey(p, NS).verdict === 'yes' && admitsValue(p, NS, 'kube-system').verdict === 'no',
        );
        if (safe && (t.attrs[NS] === 'kube-system' || t.attrs[NS] === undefined)) expect(matches(node, t)).toBe(false);
      }),
      { numRuns: generatedSize(3000, 300) },
    );
  });

  test('a tree judged to pin the key never matches a target that lacks it', () => {
    fc.assert(
      fc.property(tree, target, (node, t) => {
        const pinned = toPaths(parsePredicate(node)).every((p) => pinsKey(p, NS).verdict === 'yes');
        if (pinned && t.attrs[NS] === undefined) expect(matches(node, t)).toBe(false);
      }),
      { numRuns: generatedSize(3000, 300) },
    );
  });

  test('the properties are not vacuous: safe trees occur', () => {
    const trees = fc.sample(tree, { numRuns: 3000, seed: 7 });
    const safe = trees.filter((node) =>
      toPaths(parsePredicate(node)).every(
        (p) => pinsKey(p, NS).verdict === 'yes' && admitsValue(p, NS, 'kube-system').verdict === 'no',
      ),
    );
    expect(safe.length).toBeGreaterThan(300);
  });
});
