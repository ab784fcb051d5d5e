import type { Attribute, PreflightPayload, Step } from '../../../src/payload/types';
import { payload } from '../../helpers/fixtures';
import { decide } from '../../../src/policy/engine/decide';
import { bundleFrom } from '../../helpers/bundle-from';
import { NOW, policyDocument, reasonsFor, withAttack } from '../../helpers/decide-harness';

const S1 = 'step "com.steadybit.extension_container.stress_cpu" (steps[1])';
const T1 = 'target docker://1f769d01b9c5cd29bb302ca40157274f38798104208117b3310825ba676883ea';
const HINT = (k: string) =>
  `add ${k} to the preflight webhook's targetAttributeIncludes (or "*" for all attributes) so Steadybit sends it, or set whenMissing: allow`;

/** The spec example's container target with its attributes plus `extra`. */
const attrs = (...extra: Attribute[]) =>
  withAttack((s) => {
    s.targetExecutions?.[0].attributes?.push(...extra);
  });
const ns = (value: string): Attribute => ({ key: 'k8s.namespace', value });

/** The docs' "execution created" payload as a preflight: its target carries aws.account 244471902119. */
const docsPayload = () => {
  const p = payload<PreflightPayload>('docs-custom-webhook-execution-created.json');
  p.event = 'experiment.execution.preflight';
  return p;
};
const DOCS_T =
  'target aa815cb361e65806a6938670d71a7af94666cf3a08acce990c1d131ae4533b07 of step "com.steadybit.extension_container.stress_cpu" (steps[0])';

const FORBID = 'targetAttributes: {forbid: {k8s.namespace: [kube-system]}}';

describe('targetAttributes rule', () => {
  test.each([
    [
      'a forbidden value denies, naming target, step and value',
      FORBID,
      attrs(ns('kube-system')),
      [`${T1} of ${S1} has k8s.namespace=kube-system, which is forbidden`],
    ],
    ['another value passes', FORBID, attrs(ns('shop')), []],
    [
      'a key sent twice is judged on every value',
      FORBID,
      attrs(ns('shop'), ns('kube-system')),
      [expect.stringContaining('has k8s.namespace=kube-system, which is forbidden')],
    ],
    [
      'allowOnly passes a listed value (real docs payload)',
      'targetAttributes: {allowOnly: {aws.account: ["244471902119"]}}',
      docsPayload(),
      [],
    ],
    [
      'allowOnly denies another value (real docs payload)',
      'targetAttributes: {allowOnly: {aws.account: ["111111111111", "222222222222"]}}',
      docsPayload(),
      [`${DOCS_T} has aws.account=244471902119, which is not one of the allowed values (111111111111, 222222222222)`],
    ],
    [
      'a missing attribute denies by default, saying how to have it sent',
      FORBID,
      attrs(),
      [`cannot decide: ${T1} of ${S1} has no k8s.namespace attribute; ${HINT('k8s.namespace')}`],
    ],
    [
      'whenMissing: allow lets a missing attribute pass',
      'targetAttributes: {forbid: {k8s.namespace: [kube-system]}, whenMissing: allow}',
      attrs(),
      [],
    ],
    [
      'whenMissing: allow still denies a forbidden value',
      'targetAttributes: {forbid: {k8s.namespace: [kube-system]}, whenMissing: allow}',
      attrs(ns('kube-system')),
      [expect.stringContaining('which is forbidden')],
    ],
    [
      'a target without attributes at all',
      FORBID,
      withAttack((s) => {
        delete s.targetExecutions?.[0].attributes;
      }),
      [`cannot decide: ${T1} of ${S1} carries no attributes; ${HINT('k8s.namespace')}`],
    ],
    [
      'several missing keys are named in one line',
      'targetAttributes: {forbid: {k8s.namespace: [kube-system]}, allowOnly: {aws.account: ["1"]}}',
      attrs(),
      [
        `cannot decide: ${T1} of ${S1} has none of the attributes k8s.namespace, aws.account; add k8s.namespace, aws.account to the preflight webhook's targetAttributeIncludes (or "*" for all attributes) so Steadybit sends them, or set whenMissing: allow`,
      ],
    ],
    [
      'an attribute key named like an Object property is just missing',
      'targetAttributes: {allowOnly: {constructor: [x]}}',
      attrs(),
      [expect.stringContaining('has no constructor attribute')],
    ],
    [
      'a step without targetExecutions is missing data',
      FORBID,
      withAttack((s) => {
        delete s.targetExecutions;
      }),
      [
        `cannot decide: ${S1} sends no targetExecutions, so the attributes k8s.namespace of its targets cannot be checked`,
      ],
    ],
    [
      'an empty target list with a count above 0 is missing data',
      FORBID,
      withAttack((s) => {
        s.targetExecutions = [];
        s.totalTargetCount = 3;
      }),
      [
        `cannot decide: ${S1} lists no targets although totalTargetCount is 3, so the attributes k8s.namespace of its targets cannot be checked`,
      ],
    ],
    [
      'fewer targets listed than counted is missing data',
      FORBID,
      withAttack((s) => {
        s.totalTargetCount = 4;
        s.targetExecutions?.[0].attributes?.push(ns('shop'));
      }),
      [`cannot decide: ${S1} lists 1 of its 4 targets (totalTargetCount); the other 3 cannot be checked`],
    ],
    [
      'a step expecting no targets has nothing to check',
      FORBID,
      withAttack((s) => {
        s.targetExecutions = [];
        s.totalTargetCount = 0;
      }),
      [],
    ],
    [
      'a target without a name is named by its position',
      FORBID,
      withAttack((s) => {
        s.targetExecutions = [{ attributes: [ns('kube-system')] }];
      }),
      [`targetExecutions[0] of ${S1} has k8s.namespace=kube-system, which is forbidden`],
    ],
  ])('%s', (_name, rule, p, expected) => {
    expect(reasonsFor(rule, p)).toEqual(expected);
  });

  test('policies of one request each read their own keys of the same target', () => {
    const named = (name: string, rule: string) => policyDocument(rule, '', name);
    const files = {
      'a.yaml': named('a', FORBID),
      'b.yaml': named('b', 'targetAttributes: {allowOnly: {aws.account: ["2"]}}'),
      'c.yaml': named('c', 'targetAttributes: {forbid: {k8s.namespace: [shop]}}'),
    };
    const d = decide(
      bundleFrom(files, NOW),
      attrs(ns('shop'), { key: 'aws.account', value: '1' }, ns('kube-system')),
      {},
      NOW,
      { decisionId: 'd-1' },
    );
    expect(Object.fromEntries(d.results.map((r) => [r.policy, r.reasons]))).toEqual({
      a: [`${T1} of ${S1} has k8s.namespace=kube-system, which is forbidden`],
      b: [`${T1} of ${S1} has aws.account=1, which is not one of the allowed values (2)`],
      c: [`${T1} of ${S1} has k8s.namespace=shop, which is forbidden`],
    });
  });

  test("a key's values are read once per decision, however many policies judge it over whichever steps", () => {
    const reads = { count: 0 };
    // Every target counts the reads of its attribute list: a rule reads a key's values from the decision's column.
    const counted = withAttack((s: Step) => {
      s.targetExecutions = Array.from({ length: 5 }, (_, i) => {
        const attributes = [ns(i === 3 ? 'kube-system' : 'shop'), { key: 'aws.account', value: '1' }];
        return Object.defineProperty({ name: `pod-${i}` }, 'attributes', {
          enumerable: true,
          get: () => {
            reads.count++;
            return attributes;
          },
        });
      });
      s.totalTargetCount = 5;
    });
    const named = (name: string, rule: string, extra = '') => policyDocument(rule, extra, name);
    const files = {
      'a.yaml': named('a', FORBID),
      // Its step filter gives it a list of steps of its own: no answer of another policy serves it.
      'b.yaml': named(
        'b',
        'targetAttributes: {forbid: {k8s.namespace: [shop]}}',
        'match: {actionIds: ["com.steadybit.extension_container.*"]}\n',
      ),
      'c.yaml': named('c', 'targetAttributes: {allowOnly: {k8s.namespace: [shop]}}'),
    };
    const d = decide(bundleFrom(files, NOW), counted, {}, NOW, { decisionId: 'd-1' });
    expect(d.results.map((r) => [r.policy, r.reasons.length])).toEqual([
      ['a', 1],
      ['b', 4],
      ['c', 1],
    ]);
    expect(reads.count).toBe(5);
  });

  test('many offending targets are listed up to 10 per step, then summed up', () => {
    const many = withAttack((s: Step) => {
      s.targetExecutions = Array.from({ length: 25 }, (_, i) => ({
        name: `pod-${i}`,
        attributes: [ns('kube-system')],
      }));
      s.totalTargetCount = 25;
    });
    const reasons = reasonsFor(FORBID, many);
    expect(reasons).toHaveLength(11);
    expect(reasons[10]).toBe(`${S1}: 15 more target attribute findings not listed`);
  });
});
