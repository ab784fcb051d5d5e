import { loadSuites } from '../../src/cli/suite/load-suites';
import { tempDirs } from './run-cli';

/**
 * A misspelt field or value in a test suite gets the same did-you-mean as in a policy
 * (schema-suggestion.ts): one line per mistake, at the key or value, naming what was meant.
 */
const SUITE = `kind: PolicyTestSuite
defaults:
  now: "2026-03-02T10:00:00Z"
  payload: {}
cases:
  - name: prod is denied
    expect:
      decision: deny
`;

const CASE_FIELDS =
  'name, description, whileRunning, payload, payloadFile, patch, add, unset, now, state, environments, teams, signals, signalsFile, expect';

describe('schema errors of a test suite', () => {
  const dir = tempDirs();
  const problemsOf = (suite: string): string[] => {
    const d = dir({ 'p.test.yaml': suite });
    return loadSuites(d).flatMap((s) =>
      s.problems.map((p) => `${p.file.slice(d.length + 1)}:${p.line}:${p.col} ${p.path}: ${p.message}`),
    );
  };

  test.each([
    [
      'a misspelt field: the closest known one and the fields allowed, without "expect is required" beside it',
      SUITE.replace('expect:', 'expct:'),
      `p.test.yaml:7:5 cases[0].expct: expct is not a known field: did you mean "expect"? (known fields: ${CASE_FIELDS})`,
    ],
    [
      'a misspelt enum value: the closest allowed one',
      SUITE.replace('decision: deny', 'decision: alow'),
      'p.test.yaml:8:17 cases[0].expect.decision: must be one of allow, deny, got "alow": did you mean "allow"?',
    ],
    [
      'a policy name in capitals: the lower-case name',
      SUITE.replace('decision: deny', 'decision: deny\n      denied: [Blocked-Environments]'),
      'p.test.yaml:9:16 cases[0].expect.denied[0]: "Blocked-Environments" is not a name: use lower-case letters, digits and dashes (at most 63), starting and ending with a letter or digit: did you mean "blocked-environments"?',
    ],
    [
      'a misspelt kind: the one kind allowed',
      SUITE.replace('kind: PolicyTestSuite', 'kind: PolicyTestSuit'),
      'p.test.yaml:1:7 kind: must be PolicyTestSuite, got "PolicyTestSuit": did you mean "PolicyTestSuite"?',
    ],
    [
      'a kind near a policy-set kind in a suite (it has cases): the suite kind, never the policy kind',
      SUITE.replace('kind: PolicyTestSuite', 'kind: Polcy'),
      'p.test.yaml:1:7 kind: must be PolicyTestSuite, got "Polcy": did you mean "PolicyTestSuite"? (a *.test.yaml file is a test suite: its kind is PolicyTestSuite, or leave kind out)',
    ],
    [
      'a kind near another policy-set kind in a suite: the suite kind too',
      SUITE.replace('kind: PolicyTestSuite', 'kind: Exceptoin'),
      'p.test.yaml:1:7 kind: must be PolicyTestSuite, got "Exceptoin": did you mean "PolicyTestSuite"? (a *.test.yaml file is a test suite: its kind is PolicyTestSuite, or leave kind out)',
    ],
    [
      'a misspelt top-level field',
      SUITE.replace('defaults:', 'defualts:'),
      'p.test.yaml:2:1 defualts: defualts is not a known field: did you mean "defaults"? (known fields: kind, name, description, defaults, cases)',
    ],
    [
      'a field near none: still the fields allowed',
      SUITE.replace('expect:', 'zz: 1\n    expect:'),
      `p.test.yaml:7:5 cases[0].zz: zz is not a known field (known fields: ${CASE_FIELDS})`,
    ],
  ])('%s', (_, suite, line) => {
    expect(problemsOf(suite)).toEqual([line]);
  });

  test('a policy (no cases, no defaults) with a kind near Policy in a file named as a suite: told it is a policy there', () => {
    const policy = 'kind: Polcy\nname: gate\nrules:\n  - environments: { blocked: [prod] }\n';
    expect(problemsOf(policy)).toContain(
      'p.test.yaml:1:7 kind: must be PolicyTestSuite, got "Polcy": did you mean "Policy"? (a Policy belongs in a file not named *.test.yaml: *.test.yaml files are test suites)',
    );
  });

  test('a misspelt result in a map of policy names: the closest result', () => {
    const suite = SUITE.replace('decision: deny', 'decision: deny\n      results: { block-prod: pas }');
    expect(problemsOf(suite)).toEqual([
      'p.test.yaml:9:30 cases[0].expect.results.block-prod: must be one of pass, deny, warn, audit, skipped, got "pas": did you mean "pass"?',
    ]);
  });

  test('a valid suite has no problems', () => {
    expect(problemsOf(SUITE)).toEqual([]);
  });
});
