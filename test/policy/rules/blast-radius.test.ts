import { reasonsFor, withAttack } from '../../helpers/decide-harness';

const S1 = 'step "com.steadybit.extension_container.stress_cpu" (steps[1])';
const NS = 'k8s.namespace';
const CL = 'k8s.cluster-name';

const eq = (key: string, ...values: string[]) => ({ key, operator: 'EQUALS', values });
const and = (...predicates: unknown[]) => ({ operator: 'AND', predicates });
const or = (...predicates: unknown[]) => ({ operator: 'OR', predicates });
const not = (p: unknown) => ({ not: p });
/** The spec example's attack with `radius.predicate` replaced (undefined removes it). */
const radius = (predicate: unknown) =>
  withAttack((s) => {
    if (!s.radius) throw new Error('fixture changed: steps[1] has no radius');
    if (predicate === undefined) delete s.radius.predicate;
    else s.radius.predicate = predicate as Record<string, unknown>;
  });

const REQUIRE = `blastRadius: {requireKeys: [${NS}]}`;
const FORBID = `blastRadius: {forbidValues: {${NS}: [kube-system]}}`;
const UNSCOPED = 'blastRadius: {denyUnscoped: true}';
const notScoped = (how: string) => `${S1} is not scoped by ${NS}: ${how}, which does not pin ${NS} with EQUALS`;
const forbidden = (how: string, via: string) =>
  `${S1} can select targets with ${NS}=kube-system, which is forbidden: ${how} (${via} lets kube-system through)`;
const blind = (what: string, part: string) =>
  `cannot decide: ${S1}: ${what} depends on ${part} in radius.predicate, which the engine cannot judge`;

describe('blastRadius rule: requireKeys', () => {
  test.each([
    [
      'the real fixture pins its own key',
      `blastRadius: {requireKeys: [container.host/name]}`,
      radius(and(eq('container.host/name', 'docker-desktop/minikube'))),
      [],
    ],
    [
      'the real fixture is not scoped by namespace',
      REQUIRE,
      radius(and(eq('container.host/name', 'docker-desktop/minikube'))),
      [notScoped('its predicate is container.host/name EQUALS docker-desktop/minikube')],
    ],
    [
      'every key listed must be pinned',
      `blastRadius: {requireKeys: [${CL}, ${NS}]}`,
      radius(and(eq(CL, 'prod'), eq(NS, 'shop'))),
      [],
    ],
    [
      'a key pinned in only one OR branch does not scope',
      REQUIRE,
      radius(or(and(eq(NS, 'shop'), eq(CL, 'prod')), eq(CL, 'prod'))),
      [notScoped(`the OR branch ${CL} EQUALS prod of its predicate`)],
    ],
    [
      'a key pinned in every OR branch scopes',
      REQUIRE,
      radius(or(eq(NS, 'shop'), and(eq(CL, 'a'), eq(NS, 'cart')))),
      [],
    ],
    [
      'an AND around an OR multiplies the branches',
      REQUIRE,
      radius(and(eq(NS, 'shop'), or(eq(CL, 'a'), eq(CL, 'b')))),
      [],
    ],
    [
      'a key under not does not scope',
      REQUIRE,
      radius(and(eq(CL, 'prod'), not(eq(NS, 'kube-system')))),
      [notScoped(`its predicate is ${CL} EQUALS prod AND ${NS} NOT_EQUALS kube-system`)],
    ],
    ['a double negation is the key itself', REQUIRE, radius(not(not(eq(NS, 'shop')))), []],
    [
      'not over an OR is an AND of negations (De Morgan)',
      REQUIRE,
      radius(not(or(eq(NS, 'a'), eq(NS, 'b')))),
      [notScoped(`its predicate is ${NS} NOT_EQUALS a AND ${NS} NOT_EQUALS b`)],
    ],
    [
      'not over an AND is an OR of negations (De Morgan)',
      REQUIRE,
      radius(not(and(eq(NS, 'a'), eq(CL, 'b')))),
      [notScoped(`the OR branch ${NS} NOT_EQUALS a of its predicate`)],
    ],
    [
      'not over NOT_EQUALS pins like EQUALS',
      REQUIRE,
      radius(not({ key: NS, operator: 'NOT_EQUALS', values: ['shop'] })),
      [],
    ],
    ['EQUALS_IGNORE_CASE pins', REQUIRE, radius({ key: NS, operator: 'EQUALS_IGNORE_CASE', values: ['Shop'] }), []],
    [
      'CONTAINS does not pin',
      REQUIRE,
      radius({ key: NS, operator: 'CONTAINS', values: ['shop'] }),
      [notScoped(`its predicate is ${NS} CONTAINS shop`)],
    ],
    [
      'key presence does not pin',
      REQUIRE,
      radius({ key: NS, presenceOperator: 'PRESENT' }),
      [notScoped(`its predicate is ${NS} PRESENT`)],
    ],
    [
      'key count does not pin',
      REQUIRE,
      radius({ key: NS, valueCountOperator: 'EQUAL', value: '1' }),
      [notScoped(`its predicate is count(${NS}) EQUAL 1`)],
    ],
    [
      'a target name does not pin a key',
      REQUIRE,
      radius({ name: 'pod-1' }),
      [notScoped('its predicate is name pod-1')],
    ],
    [
      'agentId and types leaves next to a pin are fine',
      REQUIRE,
      radius(
        and(
          { agentId: '6c8f0b8a-3a8e-4a57-9d1e-1f0c5b8a9e11' },
          { types: ['com.steadybit.extension_container.container'] },
          eq(NS, 'shop'),
        ),
      ),
      [],
    ],
    ['no predicate at all is not scoped', REQUIRE, radius(undefined), [notScoped('it has no radius.predicate')]],
    [
      'a query-language predicate cannot be decided',
      REQUIRE,
      radius({ query: `${NS}="shop"` }),
      [blind(`whether it is scoped by ${NS}`, `query "${NS}="shop""`)],
    ],
    [
      'onUnknownShape: ignore skips what only the query could decide',
      `blastRadius: {requireKeys: [${NS}], onUnknownShape: ignore}`,
      radius({ query: `${NS}="shop"` }),
      [],
    ],
    [
      'ignore never hides a branch that is known to be unscoped',
      `blastRadius: {requireKeys: [${NS}], onUnknownShape: ignore}`,
      radius(or({ query: 'x' }, eq(CL, 'prod'))),
      [notScoped(`the OR branch ${CL} EQUALS prod of its predicate`)],
    ],
    ['a pin on the same branch outweighs a query', REQUIRE, radius(and({ query: 'x' }, eq(NS, 'shop'))), []],
    [
      'an unknown operator cannot be decided and is named',
      REQUIRE,
      radius({ key: NS, operator: 'MATCHES_REGEX', values: ['sh.*'] }),
      [
        expect.stringMatching(
          /^cannot decide: .*depends on operator MATCHES_REGEX on k8s\.namespace \(known: EQUALS, NOT_EQUALS/,
        ),
      ],
    ],
    [
      'a key predicate without values cannot be decided',
      REQUIRE,
      radius({ key: NS, operator: 'EQUALS' }),
      [blind(`whether it is scoped by ${NS}`, `key predicate "${NS} EQUALS" without values`)],
    ],
    [
      'an unknown object shape cannot be decided',
      REQUIRE,
      radius({ selector: 'app=shop' }),
      [blind(`whether it is scoped by ${NS}`, 'object with fields selector')],
    ],
    [
      'an object mixing two shapes cannot be decided',
      REQUIRE,
      radius({ ...eq(NS, 'shop'), not: eq(NS, 'x') }),
      [blind(`whether it is scoped by ${NS}`, 'object mixing not and key')],
    ],
    [
      'a list where an object belongs cannot be decided',
      REQUIRE,
      radius([eq(NS, 'shop')]),
      [blind(`whether it is scoped by ${NS}`, 'a list where a predicate object was expected')],
    ],
    [
      'an unknown group operator cannot be decided',
      REQUIRE,
      radius({ operator: 'XOR', predicates: [eq(NS, 'a')] }),
      [blind(`whether it is scoped by ${NS}`, 'group with operator "XOR"')],
    ],
  ])('%s', (_name, rule, payload, expected) => {
    expect(reasonsFor(rule, payload)).toEqual(expected);
  });
});

describe('blastRadius rule: forbidValues', () => {
  test.each([
    ['a pin on another value passes', radius(eq(NS, 'shop')), []],
    [
      'a pin listing the forbidden value denies',
      radius(and(eq(CL, 'prod'), eq(NS, 'shop', 'kube-system'))),
      [
        forbidden(
          `its predicate is ${CL} EQUALS prod AND ${NS} EQUALS [shop, kube-system]`,
          `${NS} EQUALS [shop, kube-system]`,
        ),
      ],
    ],
    [
      'the forbidden value in one OR branch denies',
      radius(or(eq(NS, 'shop'), eq(NS, 'kube-system'))),
      [forbidden(`the OR branch ${NS} EQUALS kube-system of its predicate`, `${NS} EQUALS kube-system`)],
    ],
    ['a negation never allows the value', radius(not(eq(NS, 'kube-system'))), []],
    [
      'NOT_EQUALS another value lets it through',
      radius({ key: NS, operator: 'NOT_EQUALS', values: ['default'] }),
      [forbidden(`its predicate is ${NS} NOT_EQUALS default`, `${NS} NOT_EQUALS default`)],
    ],
    [
      'CONTAINS a part of it lets it through',
      radius({ key: NS, operator: 'CONTAINS', values: ['kube'] }),
      [expect.stringContaining('can select targets with k8s.namespace=kube-system')],
    ],
    [
      'STARTS_WITH_IGNORE_CASE lets it through',
      radius({ key: NS, operator: 'STARTS_WITH_IGNORE_CASE', values: ['KUBE'] }),
      [expect.stringContaining('which is forbidden')],
    ],
    [
      'EQUALS_IGNORE_CASE in other case lets it through',
      radius({ key: NS, operator: 'EQUALS_IGNORE_CASE', values: ['Kube-System'] }),
      [expect.stringContaining('which is forbidden')],
    ],
    [
      'a rejecting literal on the same branch wins',
      radius(
        and(
          { key: NS, operator: 'NOT_EQUALS', values: ['kube-system'] },
          { key: NS, operator: 'CONTAINS', values: ['kube'] },
        ),
      ),
      [],
    ],
    [
      'key presence lets every value through',
      radius({ key: NS, presenceOperator: 'PRESENT' }),
      [forbidden(`its predicate is ${NS} PRESENT`, `${NS} PRESENT`)],
    ],
    ['key absence lets no value through', radius({ key: NS, presenceOperator: 'NOT_PRESENT' }), []],
    ['a value count of 0 lets no value through', radius({ key: NS, valueCountOperator: 'EQUAL', value: '0' }), []],
    [
      'a value count above 0 lets it through',
      radius({ key: NS, valueCountOperator: 'GREATER_THAN', value: '0' }),
      [expect.stringContaining(`count(${NS}) GREATER_THAN 0 lets kube-system through`)],
    ],
    ['not over a presence is an absence', radius(not({ key: NS, presenceOperator: 'PRESENT' })), []],
    ['a predicate that never names the key is left to requireKeys', radius(eq(CL, 'prod')), []],
    [
      'a query could select it: cannot decide',
      radius(and(eq(CL, 'prod'), { query: `${NS}="kube-system"` })),
      [blind(`whether it can select ${NS}=kube-system`, `query "${NS}="kube-system""`)],
    ],
    [
      'an unknown operator on the key cannot be decided',
      radius({ key: NS, operator: 'REGEX', values: ['kube-.*'] }),
      [expect.stringMatching(/^cannot decide: .*operator REGEX on k8s\.namespace/)],
    ],
  ])('%s', (_name, payload, expected) => {
    expect(reasonsFor(FORBID, payload)).toEqual(expected);
  });
});

describe('blastRadius rule: denyUnscoped', () => {
  test.each([
    ['the real fixture is scoped', radius(and(eq('container.host/name', 'docker-desktop/minikube'))), []],
    [
      'no predicate selects every target of the type',
      radius(undefined),
      [
        `${S1} is unscoped: it has no radius.predicate, so it selects every target of com.steadybit.extension_container.container`,
      ],
    ],
    [
      'an empty AND group selects everything',
      radius(and()),
      [expect.stringContaining('is unscoped: its predicate is (no condition)')],
    ],
    [
      'an OR with an empty branch selects everything',
      radius(or(eq(NS, 'shop'), and())),
      [expect.stringContaining('is unscoped: the OR branch (no condition) of its predicate')],
    ],
    [
      'a name, type or agent leaf scopes',
      radius(or({ name: 'a' }, { types: ['t'] }, { agentId: 'x' }, not({ name: 'b' }))),
      [],
    ],
    ['only a query: cannot decide', radius({ query: '*' }), [blind('whether it is scoped', 'query "*"')]],
  ])('%s', (_name, payload, expected) => {
    expect(reasonsFor(UNSCOPED, payload)).toEqual(expected);
  });

  test('a CHECK step without a radius is not judged', () => {
    const check = withAttack((s) => {
      s.actionKind = 'CHECK';
      delete s.radius;
      delete s.targetExecutions;
      delete s.totalTargetCount;
    });
    expect(reasonsFor(UNSCOPED, check)).toEqual([]);
  });

  test('a tree too large to expand cannot be decided', () => {
    const wide = and(...Array.from({ length: 10 }, (_, i) => or(eq(NS, `a${i}`), eq(NS, `b${i}`))));
    expect(reasonsFor(REQUIRE, radius(wide))).toEqual([
      blind(`whether it is scoped by ${NS}`, 'predicate with more than 512 ways through it'),
    ]);
  });

  test('a tree nested too deep cannot be decided', () => {
    let deep: unknown = eq(NS, 'shop');
    for (let i = 0; i < 40; i++) deep = and(deep);
    expect(reasonsFor(REQUIRE, radius(deep))).toEqual([
      blind(`whether it is scoped by ${NS}`, 'predicate nested deeper than 32 levels'),
    ]);
  });
});
