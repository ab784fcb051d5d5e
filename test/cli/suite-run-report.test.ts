import { reportJunit } from '../../src/cli/suite/report-junit';
import { reportText } from '../../src/cli/suite/report-text';
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

  test('in a large set: the policy meant, and the first 20 known names with how many more', () => {
    const many = Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [
        `gate-${i}.yaml`,
        BLOCK_PROD.replace('name: block-prod', `name: gate-${i}`),
      ]),
    );
    const [report] = run({
      ...many,
      'p.test.yaml': SUITE.replace('denied: [block-prod]', 'denied: [block-prdo]'),
    }).suites;
    const message = report.problems.map((p) => p.message).find((m) => m.includes('block-prdo')) ?? '';
    expect(message).toMatch(
      /^policy "block-prdo" does not exist in this policy set: did you mean "block-prod"\? \(known: /,
    );
    expect(message).toMatch(/ and 12 more\)$/);
  });

  test('a policy name near none: no suggestion, the names the set knows', () => {
    const [report] = run({ 'p.test.yaml': SUITE.replace('denied: [block-prod]', 'denied: [freeze-all]') }).suites;
    expect(report.problems.map((p) => p.message)).toEqual([
      'policy "freeze-all" does not exist in this policy set (known: emergency-stop (built-in), block-prod)',
    ]);
  });

  test('a suite that cannot run: its line says why, it fails, its cases count as not run, and JUnit has a failure for it', () => {
    const result = run({
      'good.test.yaml': SUITE,
      'broken.test.yaml': SUITE.replace('expect: { decision: deny, denied', 'expct: { decision: deny, denied'),
    });
    expect(result.ok).toBe(false);
    expect(result.invalidSuites).toBe(true);
    expect(result.counts).toEqual({
      suites: 2,
      failedSuites: 1,
      notRunSuites: 1,
      cases: 2,
      passed: 2,
      failed: 0,
      notRun: 2,
      uncountedSuites: 0,
    });
    const broken = result.suites.find((r) => r.file.endsWith('broken.test.yaml'));
    expect(broken).toMatchObject({ notRun: 2, written: 2, notRunReason: 'the suite file has 1 error (below)' });
    const text = reportText(result);
    expect(text).toMatch(
      /^FAIL \S+\/broken\.test\.yaml: could not run: the suite file has 1 error \(below\); 2 cases not tested$/m,
    );
    expect(text).not.toContain('0/0');
    expect(text).toMatch(
      /^FAILED: 2 suites \(1 failed, 1 of them could not run\), 2 cases: 2 passed, 0 failed, 2 not run; /m,
    );
    expect(reportJunit(result)).toMatch(/<testsuites name="preflight-gate policy tests" tests="3" failures="1" /);
  });

  test('a suite that is not valid YAML: its cases are not counted as run, nor as 0 not run, but as unknown', () => {
    const lines = SUITE.split('\n');
    lines[6] += ' {';
    const result = run({ 'good.test.yaml': SUITE, 'broken.test.yaml': lines.join('\n') });
    expect(result.counts).toEqual({
      suites: 2,
      failedSuites: 1,
      notRunSuites: 1,
      cases: 2,
      passed: 2,
      failed: 0,
      notRun: 0,
      uncountedSuites: 1,
    });
    const broken = result.suites.find((r) => r.file.endsWith('broken.test.yaml'));
    expect(broken).toMatchObject({
      notRun: 0,
      written: null,
      notRunReason: expect.stringMatching(/^the suite file has \d+ errors? \(below\)$/),
    });
    const text = reportText(result);
    expect(text).toMatch(
      /^FAIL \S+\/broken\.test\.yaml: could not run: the suite file has \d+ errors? \(below\); its cases not tested \(how many is unknown: the file is not valid YAML\)$/m,
    );
    expect(text).toMatch(
      /^FAILED: 2 suites \(1 failed, 1 of them could not run\), 2 cases: 2 passed, 0 failed, 0 not run and the cases of 1 suite that is not valid YAML \(how many is unknown\); /m,
    );
  });

  test('the JSON report: per suite, notRun is a number and the reason is notRunReason', () => {
    const result = JSON.parse(
      JSON.stringify(
        run({
          'good.test.yaml': SUITE,
          'broken.test.yaml': SUITE.replace('expect: { decision: deny, denied', 'expct: { decision: deny, denied'),
        }),
      ),
    );
    for (const suite of result.suites) expect(typeof suite.notRun).toBe('number');
    expect(result.suites.map((s: { notRunReason?: string }) => s.notRunReason)).toEqual(
      expect.arrayContaining([undefined, 'the suite file has 1 error (below)']),
    );
  });

  test('every suite of an invalid policy set could not run, and says so', () => {
    const result = run({ 'good.test.yaml': SUITE, 'bad.yaml': 'kind: Policy\nname: bad\nrules: 3\n' });
    expect(result.counts).toMatchObject({ suites: 1, failedSuites: 1, notRunSuites: 1, cases: 0, notRun: 2 });
    expect(reportText(result)).toMatch(
      /^FAIL \S+\/good\.test\.yaml: could not run: the policy set is invalid \(see its errors above\); 2 cases not tested$/m,
    );
    const junit = reportJunit(result);
    expect(junit).toContain('name="suite ran" time="0.000"><failure message="could not run: the policy set is invalid');
    expect(junit).toMatch(/<testsuites name="preflight-gate policy tests" tests="2" failures="2" /);
  });

  test('a suite that ran says how many cases passed, as before', () => {
    const result = run({ 'good.test.yaml': SUITE });
    expect(result.ok).toBe(true);
    expect(reportText(result)).toMatch(/^PASS \S+\/good\.test\.yaml: 2\/2 cases passed$/m);
    expect(reportText(result)).toMatch(/^OK: 1 suite \(0 failed\), 2 cases: 2 passed, 0 failed; /m);
  });
});
