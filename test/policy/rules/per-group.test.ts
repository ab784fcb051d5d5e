import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Attribute, PreflightPayload, Step, Target } from '../../../src/payload/types';
import { problemsOf, policyDocument, reasonsFor, withAttack } from '../../helpers/decide-harness';
import { FIXTURES, preflightWith } from '../../helpers/fixtures';

/** Targets as Steadybit's Kubernetes, AWS and host extensions send them (test/fixtures/steadybit-targets/README.md). */
const real = (file: string): Target[] =>
  JSON.parse(readFileSync(join(FIXTURES, 'steadybit-targets', file), 'utf8')) as Target[];
const PODS = real('k8s-pods.json');
const DEPLOYMENTS = real('k8s-deployments.json');
const EC2 = real('aws-ec2-instances.json');
const HOSTS = real('host-hosts.json');
const [CHECKOUT_A, CHECKOUT_B, CHECKOUT_C, CART_A, CART_B, LEDGER] = PODS;

const S1 = 'step "com.steadybit.extension_container.stress_cpu" (steps[1])';

/** The spec example's attack step acting on `targets` (all listed, totalTargetCount matching). */
const attacking = (...targets: Target[]) =>
  withAttack((s) => {
    s.targetExecutions = structuredClone(targets);
    s.totalTargetCount = targets.length;
  });
/** A target with one attribute more. */
const plus = (t: Target, ...extra: Attribute[]): Target => ({ ...t, attributes: [...(t.attributes ?? []), ...extra] });
/** A target without the attribute `key`. */
const without = (t: Target, key: string): Target => ({
  ...t,
  attributes: (t.attributes ?? []).filter((a) => a.key !== key),
});
const replicas = (n: string): Attribute => ({ key: 'k8s.specification.replicas', value: n });

/** Two attack steps (the example's steps[0] and steps[1] become attacks) on the given targets. */
function twoSteps(first: Target[], second: Target[]): PreflightPayload {
  return preflightWith((p) => {
    const steps = p.execution.steps as Step[];
    steps[0] = {
      ...structuredClone(steps[1]),
      id: 'first',
      targetExecutions: structuredClone(first),
      totalTargetCount: first.length,
    };
    Object.assign(steps[1], { targetExecutions: structuredClone(second), totalTargetCount: second.length });
  });
}

const SHARE = 'perGroup: {by: k8s.deployment, maxShare: 50, size: {attribute: k8s.specification.replicas}}';

describe('perGroup rule: caps per group', () => {
  test.each([
    [
      'one pod of a three-pod deployment under maxTargets 1 passes',
      'perGroup: {by: k8s.deployment, maxTargets: 1}',
      attacking(CHECKOUT_A, CART_A),
      [],
    ],
    [
      'two pods of one deployment over maxTargets 1 deny, naming the group and the numbers',
      'perGroup: {by: k8s.deployment, maxTargets: 1}',
      attacking(CHECKOUT_A, CHECKOUT_B, CART_A),
      [`${S1} acts on 2 targets of k8s.deployment=checkout, more than the 1 allowed per k8s.deployment`],
    ],
    [
      'every group over its cap is named',
      'perGroup: {by: k8s.deployment, maxTargets: 1}',
      attacking(...PODS),
      [
        `${S1} acts on 3 targets of k8s.deployment=checkout, more than the 1 allowed per k8s.deployment`,
        `${S1} acts on 2 targets of k8s.deployment=cart, more than the 1 allowed per k8s.deployment`,
      ],
    ],
    [
      'namespaces group by k8s.namespace',
      'perGroup: {by: k8s.namespace, maxTargets: 4}',
      attacking(...PODS),
      [`${S1} acts on 5 targets of k8s.namespace=shop, more than the 4 allowed per k8s.namespace`],
    ],
    [
      'nodes group by k8s.node.name',
      'perGroup: {by: k8s.node.name, maxTargets: 1}',
      attacking(CHECKOUT_A, CART_A),
      [
        `${S1} acts on 2 targets of k8s.node.name=ip-10-0-1-17.eu-central-1.compute.internal, more than the 1 allowed per k8s.node.name`,
      ],
    ],
    [
      'a target in several services counts in each (k8s.service.name sent twice)',
      'perGroup: {by: k8s.service.name, maxTargets: 1}',
      attacking(CART_A, CART_B),
      [
        `${S1} acts on 2 targets of k8s.service.name=cart, more than the 1 allowed per k8s.service.name`,
        `${S1} acts on 2 targets of k8s.service.name=cart-internal, more than the 1 allowed per k8s.service.name`,
      ],
    ],
    [
      'member counts distinct pods, not containers',
      'perGroup: {by: k8s.deployment, member: k8s.pod.name, maxTargets: 1}',
      attacking(CHECKOUT_A, { ...CHECKOUT_A, name: 'second container of the same pod' }),
      [],
    ],
  ])('%s', (_name, rule, p, expected) => {
    expect(reasonsFor(rule, p)).toEqual(expected);
  });
});

describe('perGroup rule: share of the group size', () => {
  test.each([
    [
      'deployment targets carry k8s.specification.replicas: one deployment of replicas 3 is 1 of 3',
      'perGroup: {by: k8s.deployment, maxShare: 34, size: {attribute: k8s.specification.replicas}}',
      attacking(DEPLOYMENTS[0]),
      [],
    ],
    [
      'a group of one: its only member is 100%',
      'perGroup: {by: k8s.deployment, maxShare: 50, size: {attribute: k8s.specification.replicas}}',
      attacking(DEPLOYMENTS[2]),
      [
        `${S1} acts on 1 of the 1 target in k8s.deployment=ledger (100%; size 1 from k8s.specification.replicas), more than the 50% allowed`,
      ],
    ],
    ['exactly at the share passes (1 of 2 at 50%)', SHARE, attacking(plus(CART_A, replicas('2'))), []],
    [
      'just over the share denies (2 of 3 at 66%)',
      'perGroup: {by: k8s.deployment, maxShare: 66, size: {attribute: k8s.specification.replicas}}',
      attacking(plus(CHECKOUT_A, replicas('3')), plus(CHECKOUT_B, replicas('3'))),
      [
        `${S1} acts on 2 of the 3 targets in k8s.deployment=checkout (66.7%; size 3 from k8s.specification.replicas), more than the 66% allowed`,
      ],
    ],
    [
      'a size missing on some targets: the others carry it, and the message says so',
      SHARE,
      attacking(plus(CHECKOUT_A, replicas('3')), CHECKOUT_B),
      [
        `${S1} acts on 2 of the 3 targets in k8s.deployment=checkout (66.7%; size 3 from k8s.specification.replicas, sent by 1 of its 2 targets), more than the 50% allowed`,
      ],
    ],
    [
      'a target sending its group twice is one target of that group',
      SHARE,
      attacking(plus(CHECKOUT_A, replicas('3'), { key: 'k8s.deployment', value: 'checkout' }), CHECKOUT_B),
      [
        `${S1} acts on 2 of the 3 targets in k8s.deployment=checkout (66.7%; size 3 from k8s.specification.replicas, sent by 1 of its 2 targets), more than the 50% allowed`,
      ],
    ],
    [
      'disagreeing sizes (a scale in progress): the smallest counts',
      SHARE,
      attacking(plus(CHECKOUT_A, replicas('4')), plus(CHECKOUT_B, replicas('3'))),
      [
        `${S1} acts on 2 of the 3 targets in k8s.deployment=checkout (66.7%; size 3 from k8s.specification.replicas, the smallest of 3 to 4 sent), more than the 50% allowed`,
      ],
    ],
    [
      'real pods carry no replica count: cannot decide, naming the group and what to send',
      SHARE,
      attacking(CHECKOUT_A),
      [
        `cannot decide: ${S1} acts on 1 target of k8s.deployment=checkout, whose size is unknown (none of its targets carries k8s.specification.replicas); add k8s.specification.replicas to the preflight webhook's targetAttributeIncludes (or "*" for all attributes) so Steadybit sends it, or set size.default`,
      ],
    ],
    [
      'deployment without spec.replicas (search) is unknown too',
      SHARE,
      attacking(DEPLOYMENTS[3]),
      [expect.stringContaining('k8s.deployment=search, whose size is unknown')],
    ],
    [
      'size.default is the documented fallback',
      'perGroup: {by: k8s.deployment, maxShare: 50, size: {attribute: k8s.specification.replicas, default: 3}}',
      attacking(CHECKOUT_A, CHECKOUT_B),
      [
        `${S1} acts on 2 of the 3 targets in k8s.deployment=checkout (66.7%; none of its targets carries k8s.specification.replicas, so size 3 from size.default), more than the 50% allowed`,
      ],
    ],
    [
      'size.default alone',
      'perGroup: {by: k8s.deployment, maxShare: 50, size: {default: 4}}',
      attacking(CHECKOUT_A, CHECKOUT_B),
      [],
    ],
    [
      'whenUnknown: warn says it without holding it against the run',
      'perGroup: {by: k8s.deployment, maxShare: 50, size: {attribute: k8s.specification.replicas, whenUnknown: warn}}',
      attacking(CHECKOUT_A),
      [expect.stringMatching(/^step .* acts on 1 target of k8s.deployment=checkout, whose size is unknown/)],
    ],
  ])('%s', (_name, rule, p, expected) => {
    expect(reasonsFor(rule, p)).toEqual(expected);
  });
});

describe('perGroup rule: a size attribute that is present but invalid', () => {
  const invalid = (value: string) =>
    `cannot decide: ${S1} acts on 1 target of k8s.deployment=checkout, whose size is invalid (target ${CHECKOUT_A.name} sends k8s.specification.replicas=${JSON.stringify(value)}, not a whole number of at least 1); correct k8s.specification.replicas where the target gets it (size.default is not used for a group sending an invalid size)`;
  test.each([['-1'], ['abc'], ['2.5'], ['0'], ['n/a'], ['']])(
    '%j denies naming the attribute, the target and the value, without the targetAttributeIncludes advice',
    (value) => {
      const reasons = reasonsFor(SHARE, attacking(plus(CHECKOUT_A, replicas(value))));
      expect(reasons).toEqual([invalid(value)]);
      expect(reasons[0]).not.toContain('targetAttributeIncludes');
    },
  );

  test('size.default does not hide an invalid value', () => {
    const rule =
      'perGroup: {by: k8s.deployment, maxShare: 50, size: {attribute: k8s.specification.replicas, default: 3}}';
    expect(reasonsFor(rule, attacking(plus(CHECKOUT_A, replicas('abc'))))).toEqual([invalid('abc')]);
  });

  test('a valid size on another target of the group does not hide it either; the others are counted', () => {
    const reasons = reasonsFor(
      SHARE,
      attacking(plus(CHECKOUT_A, replicas('2.5')), plus(CHECKOUT_B, replicas('3')), plus(CHECKOUT_C, replicas('-1'))),
    );
    expect(reasons).toEqual([
      `cannot decide: ${S1} acts on 3 targets of k8s.deployment=checkout, whose size is invalid (target ${CHECKOUT_A.name} sends k8s.specification.replicas="2.5", not a whole number of at least 1 (so does 1 other target)); correct k8s.specification.replicas where the target gets it (size.default is not used for a group sending an invalid size)`,
    ]);
  });

  test('only the group with the invalid value is held: the other groups are judged as usual', () => {
    expect(reasonsFor(SHARE, attacking(plus(CHECKOUT_A, replicas('abc')), plus(CART_A, replicas('2'))))).toEqual([
      invalid('abc'),
    ]);
  });

  test('whenUnknown: warn says it as a warning', () => {
    const rule =
      'perGroup: {by: k8s.deployment, maxShare: 50, size: {attribute: k8s.specification.replicas, whenUnknown: warn}}';
    expect(reasonsFor(rule, attacking(plus(CHECKOUT_A, replicas('abc'))))).toEqual([
      invalid('abc').replace('cannot decide: ', ''),
    ]);
  });
});

describe('perGroup rule: groups a step or the run touches', () => {
  test.each([
    [
      'EC2 instances in two zones over maxGroups 1',
      'perGroup: {by: aws.zone, maxGroups: 1}',
      attacking(EC2[0], EC2[1]),
      [`${S1} touches 2 values of aws.zone (eu-central-1a, eu-central-1b), more than the 1 allowed`],
    ],
    [
      'EC2 instances of one zone in two accounts pass a zone cap',
      'perGroup: {by: aws.zone, maxGroups: 1}',
      attacking(EC2[0], EC2[3]),
      [],
    ],
    [
      'AWS accounts',
      'perGroup: {by: aws.account, maxGroups: 1}',
      attacking(EC2[0], EC2[3]),
      [`${S1} touches 2 values of aws.account (123456789012, 210987654321), more than the 1 allowed`],
    ],
    [
      'hosts enriched with their zone',
      'perGroup: {by: aws.zone, maxGroups: 2}',
      attacking(...HOSTS),
      [`${S1} touches 3 values of aws.zone (eu-central-1a, eu-central-1b, eu-central-1c), more than the 2 allowed`],
    ],
    [
      'pod zones from their node labels',
      'perGroup: {by: k8s.node.label.topology.kubernetes.io/zone, maxGroups: 1}',
      attacking(CHECKOUT_A, CART_A),
      [],
    ],
    [
      'per: run counts all steps together',
      'perGroup: {by: aws.zone, per: run, maxGroups: 1}',
      twoSteps([EC2[0]], [EC2[1]]),
      ['the run touches 2 values of aws.zone (eu-central-1a, eu-central-1b), more than the 1 allowed'],
    ],
    ['per: step judges each step alone', 'perGroup: {by: aws.zone, maxGroups: 1}', twoSteps([EC2[0]], [EC2[1]]), []],
    [
      'per: run counts a target reached by two steps once',
      'perGroup: {by: k8s.deployment, per: run, maxTargets: 1}',
      twoSteps([CHECKOUT_A], [CHECKOUT_A]),
      [],
    ],
    [
      'per: run adds up different targets of one group',
      'perGroup: {by: k8s.deployment, per: run, maxTargets: 1}',
      twoSteps([CHECKOUT_A], [CHECKOUT_C]),
      ['the run acts on 2 targets of k8s.deployment=checkout, more than the 1 allowed per k8s.deployment'],
    ],
  ])('%s', (_name, rule, p, expected) => {
    expect(reasonsFor(rule, p)).toEqual(expected);
  });
});

describe('perGroup rule: missing data', () => {
  const RULE = 'perGroup: {by: k8s.deployment, maxTargets: 2}';
  test.each([
    [
      'a target without the attribute cannot be placed',
      RULE,
      attacking(CHECKOUT_A, without(LEDGER, 'k8s.deployment')),
      [
        `cannot decide: 1 target of ${S1} carries no k8s.deployment (target prod-eu/payments/ledger-6b7c9d8f7-q5w8e); add k8s.deployment to the preflight webhook's targetAttributeIncludes (or "*" for all attributes) so Steadybit sends it, or set whenMissing: allow`,
      ],
    ],
    [
      'whenMissing: allow leaves it out of the count',
      'perGroup: {by: k8s.deployment, maxTargets: 2, whenMissing: allow}',
      attacking(CHECKOUT_A, without(LEDGER, 'k8s.deployment')),
      [],
    ],
    [
      'a step without targetExecutions',
      RULE,
      withAttack((s) => {
        delete s.targetExecutions;
      }),
      [`cannot decide: ${S1} sends no targetExecutions, so the k8s.deployment of its targets is unknown`],
    ],
    [
      'fewer targets listed than counted',
      RULE,
      withAttack((s) => {
        s.targetExecutions = structuredClone([CHECKOUT_A]);
        s.totalTargetCount = 3;
      }),
      [
        `cannot decide: ${S1} lists 1 of its 3 targets (totalTargetCount); the k8s.deployment of the other 2 is unknown`,
      ],
    ],
    [
      'a step expecting no targets has nothing to count',
      RULE,
      withAttack((s) => {
        s.targetExecutions = [];
        s.totalTargetCount = 0;
      }),
      [],
    ],
  ])('%s', (_name, rule, p, expected) => {
    expect(reasonsFor(rule, p)).toEqual(expected);
  });

  test('the spec example (one container, no k8s attributes) cannot be placed', () => {
    expect(
      reasonsFor(
        RULE,
        withAttack(() => undefined),
      ),
    ).toEqual([expect.stringMatching(/^cannot decide: 1 target of step .* carries no k8s.deployment/)]);
  });

  test('members without the member attribute cannot be placed either', () => {
    expect(
      reasonsFor(
        'perGroup: {by: k8s.deployment, member: k8s.pod.name, maxTargets: 2}',
        attacking(without(CHECKOUT_A, 'k8s.pod.name')),
      ),
    ).toEqual([expect.stringContaining('carries no k8s.deployment or k8s.pod.name')]);
  });
});

describe('perGroup rule: spec errors', () => {
  test.each([
    [
      'nothing to check',
      'perGroup: {by: k8s.deployment}',
      'the rule checks nothing: set maxTargets, maxShare or maxGroups',
    ],
    ['maxShare without size', 'perGroup: {by: k8s.deployment, maxShare: 50}', 'maxShare needs the group sizes'],
    [
      'size without maxShare',
      'perGroup: {by: k8s.deployment, maxTargets: 1, size: {default: 3}}',
      'size is only read by maxShare',
    ],
    [
      'size with only whenUnknown',
      'perGroup: {by: k8s.deployment, maxShare: 5, size: {whenUnknown: warn}}',
      'size needs attribute or default',
    ],
    ['no by', 'perGroup: {maxTargets: 1}', 'by'],
    ['a share over 100', 'perGroup: {by: k8s.deployment, maxShare: 101, size: {default: 3}}', '100'],
    ['a zero cap', 'perGroup: {by: k8s.deployment, maxTargets: 0}', '1'],
  ])('%s', (_name, rule, message) => {
    const problems = problemsOf(policyDocument(rule));
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.map((p) => p.message).join('\n')).toContain(message);
    expect(problems[0].file).toBe('policies/p.yaml');
  });
});
