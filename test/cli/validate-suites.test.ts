import { formatProblem } from '../../src/policy/compile/load-error';
import { validateCommand } from '../../src/cli/commands/validate-command';
import { testPolicyDir } from '../../src/cli/suite/test-run';
import { EXIT } from '../../src/cli/exit-codes';
import { BLOCK_PROD, runIn, tempDirs } from './run-cli';

/**
 * `validate` refuses every suite `test` refuses before deciding (independent review): it runs the
 * suites as `test` does, so a misspelt policy name in an expectation or a payload or signals file
 * that cannot be read is an error at its file:line:col with `test`'s message, and exit 1.
 */
const SUITE = `kind: PolicyTestSuite
defaults:
  now: "2026-03-02T10:00:00Z"
  payloadFile: run.json
cases:
  - name: prod is denied
    expect: { decision: deny, denied: [block-prod] }
`;

const SIGNALS_SUITE = `kind: PolicyTestSuite
defaults:
  now: "2026-03-02T10:00:00Z"
  payloadFile: run.json
cases:
  - name: prod is denied
    signalsFile: signals.json
    expect: { decision: deny, denied: [block-prod] }
`;

describe('validate on the suites test refuses', () => {
  const dir = tempDirs();
  const files = (extra: Record<string, string>) =>
    dir({ 'block-prod.yaml': BLOCK_PROD, 'run.json': JSON.stringify(runIn('prod')), ...extra });
  const validate = (d: string, strict = false) => {
    let out = '';
    const code = validateCommand(d, { format: 'text', strict }, {}, (s) => {
      out += s;
    });
    return { code, out };
  };

  test('a valid suite stays valid', () => {
    const { code, out } = validate(files({ 'p.test.yaml': SUITE }));
    expect(out).toMatch(/valid \(0 errors, 0 warnings\)/);
    expect(code).toBe(EXIT.ok);
  });

  test.each([
    ['a misspelt policy name', { 'p.test.yaml': SUITE.replace('denied: [block-prod]', 'denied: [blok-prod]') }],
    ['a payload file that is not JSON', { 'p.test.yaml': SUITE, 'run.json': '{"execution": ' }],
    ['a signals file that is not JSON', { 'p.test.yaml': SIGNALS_SUITE, 'signals.json': '{ bad' }],
  ])('%s: the error test gives, at its file:line:col, and exit 1', (_, extra) => {
    const d = files(extra);
    const run = testPolicyDir(d, {});
    expect(run.invalidSuites).toBe(true);
    const [suite] = run.suites;
    const fromTest = [
      ...suite.problems.map(formatProblem),
      ...suite.cases
        .filter((c) => c.cannotRun)
        .map((c) => `${suite.file}:${c.line}:${c.col} cases[0]: ${c.failures[0].replace(/^cannot run: /, '')}`),
    ];
    expect(fromTest).toHaveLength(1);
    for (const strict of [false, true]) {
      const { code, out } = validate(d, strict);
      expect(out).toContain(`${fromTest[0]}\n`);
      expect(out).toMatch(/INVALID \(1 error, 0 warnings\)/);
      expect(code).toBe(EXIT.failed);
    }
  });

  test('a payload file every case reads that cannot be read: said once, with how many more cases it stops', () => {
    const twoCases = `${SUITE}  - name: prod is denied again\n    expect: { decision: deny }\n`;
    const { code, out } = validate(files({ 'p.test.yaml': twoCases, 'run.json': '{"execution": ' }));
    expect(out.split('\n').filter((l) => l.includes('run.json is not valid JSON'))).toEqual([
      expect.stringMatching(
        /p\.test\.yaml:6:5 cases\[0\]: payloadFile run\.json is not valid JSON: .* \(and 1 more case\)$/,
      ),
    ]);
    expect(code).toBe(EXIT.failed);
  });

  test('the did-you-mean of test comes along', () => {
    const { out } = validate(files({ 'p.test.yaml': SUITE.replace('denied: [block-prod]', 'denied: [blok-prod]') }));
    expect(out).toMatch(
      /p\.test\.yaml:7:40 cases\[0\]\.expect\.denied\[0\]: policy "blok-prod" does not exist in this policy set: did you mean "block-prod"\?/,
    );
  });
});
