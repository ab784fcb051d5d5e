import { formatProblem } from '../../src/policy/compile/load-error';
import { problemsOf } from '../helpers/decide-harness';
import { bundleFrom } from '../helpers/bundle-from';

const policy = (
  whileRunning: string,
  rules = '  - timeWindow: { timeZone: UTC, allowed: [{ from: "09:00", to: "17:00" }] }\n',
) => `kind: Policy\nname: p\nwhileRunning: ${whileRunning}\nrules:\n${rules}`;

describe('whileRunning', () => {
  test.each([
    ['true', { onCannotJudge: 'report' }],
    ['{}', { onCannotJudge: 'report' }],
    ['{ onCannotJudge: stop }', { onCannotJudge: 'stop' }],
  ])('whileRunning: %s compiles to %j', (value, expected) => {
    expect(bundleFrom({ 'p.yaml': policy(value) }).policies[0].whileRunning).toEqual(expected);
  });

  test('absent: the policy is judged at the door only', () => {
    expect(
      bundleFrom({ 'p.yaml': policy('true').replace('whileRunning: true\n', '') }).policies[0].whileRunning,
    ).toBeUndefined();
  });

  test.each([
    ['false', /whileRunning/],
    ['{ onCannotJudge: deny }', /onCannotJudge.*(report|stop)/],
    ['{ every: 5s }', /every/],
  ])('whileRunning: %s is a load error', (value, message) => {
    const problems = problemsOf(policy(value));
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.map(formatProblem).join('\n')).toMatch(message);
  });

  test('a policy none of whose rules can change during a run cannot ask for it, and is told which can', () => {
    const problems = problemsOf(
      policy('true', '  - actions: { blocked: ["com.steadybit.extension_container.stop"] }\n'),
    );
    expect(problems.map(formatProblem)).toEqual([
      expect.stringMatching(
        /^policies\/p\.yaml:3:1 whileRunning: none of this policy's rules can change during a run \(its rules: actions\); only timeWindow, alerts, prometheus, condition are judged again/,
      ),
    ]);
  });
});
