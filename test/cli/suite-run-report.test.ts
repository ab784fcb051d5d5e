import { testPolicyDir } from '../../src/cli/suite/test-run';
import { BLOCK_PROD, runIn, tempDirs } from './run-cli';

/**
 * What `test` says about a suite in its report, in process: a misspelt policy name in an
 * expectation gets the did-you-mean of every other misspelt name, and a suite that cannot run
 * says why on its line and counts as failed (never "0/0 cases passed").
 */
const SUITE = `kind: PolicyTestSuite
defaults:
  now: "2026-03-02T10:00:00Z"
  payload: ${JSON.stringify(runIn('prod'))}
cases:
  - name: prod is denied
    expect: { decision: deny, denied: [block-prod] }
  - name: prod is denied, said twice
    expect: { decision: deny, denied: [block-prod], results: { block-prod: deny } }
`;

describe('test run reports', () => {
  const dir = tempDirs();
  const run = (files: Record<string, string>) => testPolicyDir(dir({ 'block-prod.yaml': BLOCK_PROD, ...files }), {});

  test.each([
    ['denied', SUITE.replace('denied: [block-prod]', 'denied: [blok-prod]'), 'cases[0].expect.denied[0]', 'blok-prod'],
    [
      'results',
      SUITE.replace('results: { block-prod:', 'results: { block-prd:'),
      'cases[1].expect.results.block-prd',
      'block-prd',
    ],
  ])('a misspelt policy name under %s: did you mean the policy of the set', (_, suite, path, name) => {
    const [report] = run({ 'p.test.yaml': suite }).suites;
    expect(report.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      `${path}: policy "${name}" does not exist in this policy set: did you mean "block-prod"? (known: emergency-stop (built-in), block-prod)`,
    ]);
  });

  test('a policy name near none: no suggestion, the names the set knows', () => {
    const [report] = run({ 'p.test.yaml': SUITE.replace('denied: [block-prod]', 'denied: [freeze-all]') }).suites;
    expect(report.problems.map((p) => p.message)).toEqual([
      'policy "freeze-all" does not exist in this policy set (known: emergency-stop (built-in), block-prod)',
    ]);
  });
});
