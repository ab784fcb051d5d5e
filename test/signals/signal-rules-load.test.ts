import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatProblem } from '../../src/policy/compile/load-error';
import { loadBundle } from '../../src/policy/loading/load-bundle';
import { ROOT } from '../helpers/server-process';

const load = (rules: string) =>
  loadBundle([{ file: 'p.yaml', text: `kind: Policy\nname: p\nrules:\n${rules}` }], new Date('2026-01-05T10:00:00Z'));
const problems = (rules: string) => {
  const result = load(rules);
  return result.ok ? [] : result.problems.map(formatProblem);
};

describe('alerts and prometheus rules at load time', () => {
  it('declare what they need, once per distinct need, for the step before the decision', () => {
    const result = load(
      [
        '  - alerts: { matchers: \'severity="critical"\' }',
        '  - alerts: { matchers: \'team="{{team}}"\', source: eu }',
        '  - prometheus: { query: \'up{env="{{environment}}"} == 0\' }',
      ].join('\n'),
    );
    if (!result.ok) throw new Error(result.problems.map(formatProblem).join('\n'));
    expect(result.bundle.needs).toEqual([
      { kind: 'alerts', source: 'default' },
      { kind: 'alerts', source: 'eu' },
      { kind: 'prometheus', source: 'default', query: 'up{env="{{environment}}"} == 0' },
      // {{environment}} is the environment's name: the names are gathered before the query.
      { kind: 'environment-names' },
    ]);
  });

  it.each([
    [
      '  - alerts: { matchers: [\'severity="critical"\', \'team=~"(a"\'] }',
      /p\.yaml:4:\d+ rules\[0\]\.alerts\.matchers\[1\].*invalid regular expression "\(a"/,
    ],
    [
      '  - alerts: { matchers: \'namespace="{{cluster}}"\' }',
      /rules\[0\]\.alerts\.matchers.*unknown placeholder \{\{cluster\}\}/,
    ],
    ['  - alerts: { matchers: [] }', /rules\[0\]\.alerts\.matchers/],
    ['  - alerts: { matchers: \'a="b"\', source: "eu west" }', /rules\[0\]\.alerts\.source/],
    ['  - alerts: { matchers: \'a="b"\', onUnavailable: maybe }', /rules\[0\]\.alerts\.onUnavailable.*deny, allow/],
    [
      "  - prometheus: { query: 'up{env={{environment}}}' }",
      /rules\[0\]\.prometheus\.query.*must sit inside a double-quoted label value/,
    ],
    [
      '  - prometheus: { query: up, denyWhen: "more than 2" }',
      /rules\[0\]\.prometheus\.denyWhen.*denyWhen must be a comparison with a number/,
    ],
    ['  - prometheus: { query: up, onEmpty: ignore }', /rules\[0\]\.prometheus\.onEmpty/],
    ['  - prometheus: { denyWhen: "> 1" }', /rules\[0\]\.prometheus.*query/],
  ])('refuses %s with its place in the file', (rules, problem) => {
    expect(problems(rules).join('\n')).toMatch(problem);
  });
});

describe('docs/signals.md', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'signals.md'), 'utf8');
  const policies = [...doc.matchAll(/```yaml\n(kind: Policy[\s\S]*?)```/g)].map((m) => m[1]);

  it('holds the worked examples exactly as examples/signals/ has them, and they load', () => {
    expect(policies).toHaveLength(2);
    for (const [i, file] of ['no-attacks-during-critical-alerts.yaml', 'error-budget-burn.yaml'].entries()) {
      const example = readFileSync(join(ROOT, 'examples', 'signals', file), 'utf8').replace(/^#.*\n/gm, '');
      expect(policies[i]).toBe(example);
      const result = loadBundle([{ file, text: example }]);
      expect(result.ok ? [] : result.problems.map(formatProblem)).toEqual([]);
    }
  });

  it('shows the signal facts of examples/signals/signals.json', () => {
    const shown = /```json\n([\s\S]*?)```/.exec(doc.slice(doc.indexOf('## Signal facts')))?.[1] ?? '';
    const file = JSON.parse(readFileSync(join(ROOT, 'examples', 'signals', 'signals.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const strip = (facts: unknown) =>
      JSON.parse(
        JSON.stringify(facts, (k, v: unknown) =>
          ['annotations', 'endsAt', 'fingerprint', 'status'].includes(k) ? undefined : v,
        ),
      ) as unknown;
    expect(strip(JSON.parse(shown))).toEqual(strip(file));
  });

  it('documents every rule spec field the schemas accept', () => {
    for (const field of [
      'matchers',
      'source',
      'includeSilenced',
      'includeInhibited',
      'onUnavailable',
      'query',
      'denyWhen',
      'onEmpty',
      'reason',
    ])
      expect(doc).toContain(`\`${field}\``);
  });
});
