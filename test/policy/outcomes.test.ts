import { decideAt, loadProblems } from '../helpers/decide-harness';

const NOW = '2026-01-05T10:00:00Z';
const aliases = 'kind: EnvironmentAliases\naliases:\n  production: [32009f6e-ff90-47a5-8daa-80f4bb7ae591]\n';
const withMessage = (message: string) => ({
  'a.yaml': aliases,
  'p.yaml': `kind: Policy\nname: cpu-cap\nrules:\n  - parameters: {cpuLoad: {max: 80}}\nmessage: ${JSON.stringify(message)}\n`,
});
const recorder = (mods: string, name = 'record', extra = '') =>
  `kind: Policy\nname: ${name}\n${extra}modifications:\n${mods}`;

describe('outcomes: message templates', () => {
  test.each([
    ['{{experimentKey}}', 'ADM-1'],
    ['{{team}}', 'ADM'],
    ['{{environment}}', '32009f6e-ff90-47a5-8daa-80f4bb7ae591'],
    ['{{executionId}}', '1'],
    ['{{policy}}', 'cpu-cap'],
    ['{{step}}', 'com.steadybit.extension_container.stress_cpu'],
    ['{{value}}', '100'],
    ['{{decisionId}}', 'd-1'],
    ['{{now}}', '2026-01-05T10:00:00.000Z'],
    ['{{ team }} (spaces inside braces)', 'ADM (spaces inside braces)'],
    ['{{target}} (no target in this finding)', '- (no target in this finding)'],
  ])('%s renders', (template, rendered) => {
    const d = decideAt(withMessage(template), NOW);
    expect(d.allowed).toBe(false);
    expect(d.results[0].message).toBe(rendered);
  });

  test('{{reason}} renders what the rule found', () => {
    const d = decideAt(withMessage('{{reason}} - ask #chaos'), NOW);
    expect(d.results[0].message).toMatch(/cpuLoad.*80.* - ask #chaos$/);
  });

  test.each([
    [
      'an unknown placeholder in a message',
      withMessage('team {{teamKey}}'),
      'p.yaml:5:10 message: unknown placeholder {{teamKey}}; use one of {{policy}}, {{reason}}',
    ],
    [
      'a malformed placeholder',
      withMessage('team {{team-name}}'),
      'message: malformed placeholder near "{{team-name}}"',
    ],
    ['an unclosed placeholder', withMessage('team {{team'), 'message: malformed placeholder near "{{team"'],
    [
      'a step placeholder in a modification (no step there)',
      { 'p.yaml': recorder('  - {type: set_property_value, propertyKey: step, value: "{{step}}"}\n') },
      'modifications[0].value: unknown placeholder {{step}}',
    ],
  ])('rejects %s at load time', (_name, files, expected) => {
    expect(loadProblems(files).join('\n')).toContain(expected);
  });
});

describe('outcomes: modifications on allowed runs', () => {
  test('records the decision id and the policy revision, and appends an observation', () => {
    const d = decideAt(
      {
        'p.yaml': recorder(
          [
            '  - {type: set_property_value, propertyKey: preflightDecision, value: "{{decisionId}}"}',
            '  - {type: set_property_value, propertyKey: policyRevision, value: "{{revision}}"}',
            '  - {type: add_value_to_list_property, propertyKey: observations, value: "checked by {{policy}} for {{experimentKey}} at {{now}}"}',
          ].join('\n'),
        ),
      },
      NOW,
    );
    expect(d.allowed).toBe(true);
    expect(d.modifications).toEqual([
      { type: 'set_property_value', propertyKey: 'preflightDecision', value: 'd-1' },
      { type: 'set_property_value', propertyKey: 'policyRevision', value: d.revision },
      {
        type: 'add_value_to_list_property',
        propertyKey: 'observations',
        value: 'checked by record for ADM-1 at 2026-01-05T10:00:00.000Z',
      },
    ]);
  });

  test('a denied run carries no modifications', () => {
    const d = decideAt(
      {
        ...withMessage('{{reason}}'),
        'r.yaml': recorder('  - {type: set_property_value, propertyKey: approvedBy, value: gate}\n'),
      },
      NOW,
    );
    expect(d.allowed).toBe(false);
    expect(d.modifications).toEqual([]);
  });

  test('a policy out of scope adds nothing', () => {
    const d = decideAt(
      {
        'r.yaml': recorder(
          '  - {type: set_property_value, propertyKey: approvedBy, value: gate}\n',
          'record',
          'match: {teams: [OPS]}\n',
        ),
      },
      NOW,
    );
    expect(d.modifications).toEqual([]);
  });

  test('non-string values pass through unchanged', () => {
    const d = decideAt(
      {
        'r.yaml': recorder(
          '  - {type: set_property_value, propertyKey: maxTargets, value: 5}\n  - {type: set_property_value, propertyKey: tags, value: [a, 1]}\n',
        ),
      },
      NOW,
    );
    expect(d.modifications.map((m) => m.value)).toEqual([5, ['a', 1]]);
  });
});
