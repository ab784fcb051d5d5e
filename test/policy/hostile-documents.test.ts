import { loadProblems } from '../helpers/decide-harness';

const policy = 'kind: Policy\nname: real\nrules:\n  - actions: {blockedKinds: [ATTACK]}\n';

describe('a document whose kind names a member of Object.prototype is an unknown kind, not a crash', () => {
  test.each(['toString', 'constructor', 'hasOwnProperty', '__proto__', 'valueOf'])('kind: %s', (kind) => {
    const problems = loadProblems({ 'p.yaml': policy, 'x.yaml': `kind: ${kind}\nname: x\n` });
    expect(problems).toEqual([
      expect.stringMatching(
        new RegExp(
          `^x\\.yaml:1:\\d+ kind: kind must be one of Policy, Exception, EnvironmentAliases, ExceptionSettings, got "${kind}"$`,
        ),
      ),
    ]);
  });
});

describe('a YAML alias bomb is a load problem of its file, not a crash', () => {
  const bomb = [
    'a: &a [x, x, x, x, x, x, x, x, x, x]',
    'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
    'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
    'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]',
    'e: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]',
    'kind: Policy',
  ].join('\n');
  test('the set is rejected, naming the file and the reason', () => {
    expect(loadProblems({ 'p.yaml': policy, 'bomb.yaml': bomb })).toEqual([
      expect.stringMatching(
        /^bomb\.yaml:1:1 YAML error: Excessive alias count indicates a resource exhaustion attack$/,
      ),
    ]);
  });
});
