import { MAX_MESSAGE_LENGTH } from '../../src/policy/engine/combine';
import { decideAt, loadProblems } from '../helpers/decide-harness';

const NOW = '2026-01-05T10:00:00Z';
const denier = (name: string, priority: number, reason = `reason of ${name}`, mode = 'enforce') =>
  `kind: Policy\nname: ${name}\npriority: ${priority}\nmode: ${mode}\nrules:\n  - condition: {deny: true, reason: ${JSON.stringify(reason)}}\n`;
const setter = (name: string, priority: number, key: string, value: string, scope = '') =>
  `kind: Policy\nname: ${name}\npriority: ${priority}\n${scope}modifications:\n  - {type: set_property_value, propertyKey: ${key}, value: ${JSON.stringify(value)}}\n`;
const adder = (name: string, value: string) =>
  `kind: Policy\nname: ${name}\nmodifications:\n  - {type: add_value_to_list_property, propertyKey: observations, value: ${JSON.stringify(value)}}\n`;

describe('combining: every policy in scope is evaluated, any enforcing denial denies', () => {
  test('the message lists every denying policy, most important (highest priority) first', () => {
    const d = decideAt(
      { 'a.yaml': denier('a-low', 10), 'b.yaml': denier('b-high', 900), 'c.yaml': denier('c-mid', 500) },
      NOW,
    );
    expect(d.allowed).toBe(false);
    expect(d.message).toMatch(
      /^Denied by 3 policies: \[b-high\] reason of b-high \| \[c-mid\] reason of c-mid \| \[a-low\] reason of a-low \(decision d-1/,
    );
    expect(d.results.map((r) => r.result)).toEqual(['deny', 'deny', 'deny']);
  });

  test('equal priorities order by name', () => {
    const d = decideAt({ 'z.yaml': denier('zeta', 100), 'a.yaml': denier('alpha', 100) }, NOW);
    expect(d.message).toMatch(/^Denied by 2 policies: \[alpha\].*\| \[zeta\]/);
  });

  test('warnings do not deny, and an enforcing denial still does', () => {
    const d = decideAt({ 'w.yaml': denier('w', 900, 'would block', 'warn'), 'e.yaml': denier('e', 100) }, NOW);
    expect(d.allowed).toBe(false);
    expect(d.message).toMatch(/^Denied by 1 policy: \[e\] reason of e/);
    expect(d.results.find((r) => r.policy === 'w')?.result).toBe('warn');
  });

  test.each([
    [
      'many denying policies',
      Object.fromEntries(
        Array.from({ length: 40 }, (_, i) => [
          `p${i}.yaml`,
          denier(`policy-${String(i).padStart(2, '0')}`, 100 + i, 'x'.repeat(60)),
        ]),
      ),
    ],
    ['one enormous reason', { 'p.yaml': denier('huge', 100, 'y'.repeat(5000)) }],
  ])('the message stays within MAX_MESSAGE_LENGTH with %s', (_name, files) => {
    const d = decideAt(files, NOW);
    expect(d.message.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    expect(d.message).toMatch(/\(decision d-1, policy revision \w+\)$/);
  });

  test('a bounded list starts with the most important policy and counts the rest', () => {
    const files = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [
        `p${i}.yaml`,
        denier(`policy-${String(i).padStart(2, '0')}`, 100 + i, 'x'.repeat(60)),
      ]),
    );
    const d = decideAt(files, NOW);
    expect(d.message).toMatch(/^Denied by 40 policies: \[policy-39\]/);
    expect(d.message).toMatch(/\| \(\+\d+ more\) \(decision/);
  });
});

describe('combining modifications', () => {
  test('many run-time conflicts keep the message bounded and its decision reference', () => {
    const files = Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [
        `s${i}.yaml`,
        setter(`setter-${String(i).padStart(2, '0')}`, 100 + i, `property${i % 3}`, '{{policy}} {{experimentKey}}'),
      ]),
    );
    const d = decideAt(files, NOW);
    expect(d.conflicts).toHaveLength(27);
    expect(d.message.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    expect(d.message).toMatch(
      /^Allowed: 30 of 30 policies applied, none denied\. Conflict: .*… \(decision d-1, policy revision \w+\)$/,
    );
  });

  test('merge deterministically whatever order the files are read in', () => {
    const files = {
      'a.yaml': adder('first', 'one'),
      'b.yaml': setter('second', 500, 'approvedBy', 'gate'),
      'c.yaml': adder('third', 'two'),
    };
    const forward = decideAt(files, NOW).modifications;
    const reversed = decideAt(Object.fromEntries(Object.entries(files).reverse()), NOW).modifications;
    expect(forward).toEqual(reversed);
    expect(forward.map((m) => m.value)).toEqual(['gate', 'one', 'two']);
  });

  test('a value added to the same list twice is added once', () => {
    const d = decideAt({ 'a.yaml': adder('a', 'same'), 'b.yaml': adder('b', 'same') }, NOW);
    expect(d.modifications).toEqual([
      { type: 'add_value_to_list_property', propertyKey: 'observations', value: 'same' },
    ]);
  });

  const addTo = (name: string, propertyKey: string, yamlValue: string) =>
    `kind: Policy\nname: ${name}\nmodifications:\n  - {type: add_value_to_list_property, propertyKey: ${propertyKey}, value: ${yamlValue}}\n`;
  test.each([
    ['the same string', 'tags', '"chaos"', 'tags', '"chaos"', [['tags', 'chaos']]],
    [
      'a string and the number it spells',
      'tags',
      '"1"',
      'tags',
      '1',
      [
        ['tags', '1'],
        ['tags', 1],
      ],
    ],
    ['the same number written two ways', 'tags', '1.0', 'tags', '1', [['tags', 1]]],
    ['the same list', 'tags', '[1, a]', 'tags', '[1, a]', [['tags', [1, 'a']]]],
    [
      'lists that differ only in a value kind',
      'tags',
      '[1, a]',
      'tags',
      '["1", a]',
      [
        ['tags', [1, 'a']],
        ['tags', ['1', 'a']],
      ],
    ],
    [
      'one text split differently between property and value',
      'ab',
      '"c"',
      'a',
      '"bc"',
      [
        ['ab', 'c'],
        ['a', 'bc'],
      ],
    ],
  ])(
    'values added to a list are the same value when equal as JSON: %s',
    (_name, keyA, valueA, keyB, valueB, expected) => {
      const d = decideAt({ 'a.yaml': addTo('a', keyA, valueA), 'b.yaml': addTo('b', keyB, valueB) }, NOW);
      expect(d.modifications.map((m) => [m.propertyKey, m.value])).toEqual(expected);
    },
  );

  test.each([
    ['overlapping scopes', setter('a', 100, 'approvedBy', 'alice'), setter('b', 200, 'approvedBy', 'bob'), true],
    [
      'one of them unscoped',
      setter('a', 100, 'approvedBy', 'alice', 'match: {teams: [ADM]}\n'),
      setter('b', 200, 'approvedBy', 'bob'),
      true,
    ],
    [
      'disjoint teams',
      setter('a', 100, 'approvedBy', 'alice', 'match: {teams: [ADM]}\n'),
      setter('b', 200, 'approvedBy', 'bob', 'match: {teams: [OPS]}\n'),
      false,
    ],
    [
      'different environments',
      setter('a', 100, 'approvedBy', 'alice', 'match: {environments: [staging]}\n'),
      setter('b', 200, 'approvedBy', 'bob', 'match: {environments: [production]}\n'),
      false,
    ],
    [
      'an alias and one of its ids',
      setter('a', 100, 'approvedBy', 'alice', 'match: {environments: [production]}\n'),
      setter('b', 200, 'approvedBy', 'bob', 'match: {environments: [PROD-EU-1]}\n'),
      true,
    ],
    [
      'two aliases sharing an id',
      setter('a', 100, 'approvedBy', 'alice', 'match: {environments: [production]}\n'),
      setter('b', 200, 'approvedBy', 'bob', 'match: {environments: [eu]}\n'),
      true,
    ],
    [
      'disjoint createdVia',
      setter('a', 100, 'approvedBy', 'alice', 'match: {createdVia: [UI]}\n'),
      setter('b', 200, 'approvedBy', 'bob', 'match: {createdVia: [SCHEDULE]}\n'),
      false,
    ],
    ['the same value', setter('a', 100, 'approvedBy', 'alice'), setter('b', 200, 'approvedBy', 'alice'), false],
    [
      'values only known at run time',
      setter('a', 100, 'approvedBy', '{{policy}}'),
      setter('b', 200, 'approvedBy', '{{policy}}'),
      false,
    ],
  ])('setting one property to two constants is a load-time error with %s', (_name, a, b, isError) => {
    const aliases =
      'kind: EnvironmentAliases\naliases:\n  production: [prod-eu-1, prod-us-1]\n  eu: [prod-eu-1, staging-eu-1]\n';
    const problems = loadProblems({ 'a.yaml': a, 'b.yaml': b, 'aliases.yaml': aliases }).join('\n');
    if (isError)
      expect(problems).toMatch(
        /sets property "approvedBy" to "(alice|bob)", but policy "(a|b)" \(\w\.yaml:1\) sets it to "(alice|bob)" for runs both may apply to/,
      );
    else expect(problems).toBe('');
  });

  test('at run time the higher priority wins and the conflict is reported in the message and the decision', () => {
    const d = decideAt(
      {
        'a.yaml': setter('low', 100, 'approvedBy', '{{policy}}'),
        'b.yaml': setter('high', 700, 'approvedBy', '{{policy}}'),
      },
      NOW,
    );
    expect(d.allowed).toBe(true);
    expect(d.modifications).toEqual([{ type: 'set_property_value', propertyKey: 'approvedBy', value: 'high' }]);
    expect(d.conflicts).toEqual([
      { propertyKey: 'approvedBy', kept: { policy: 'high', value: 'high' }, dropped: { policy: 'low', value: 'low' } },
    ]);
    expect(d.message).toContain('Conflict: "approvedBy" set by high and low; kept "high" (higher priority).');
  });

  test('a warning policy still contributes its modifications; a denying one does not', () => {
    const warnWithMod = `${denier('w', 100, 'would block', 'warn')}modifications:\n  - {type: add_value_to_list_property, propertyKey: observations, value: warned}\n`;
    expect(decideAt({ 'w.yaml': warnWithMod }, NOW).modifications.map((m) => m.value)).toEqual(['warned']);
  });
});
