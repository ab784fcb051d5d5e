import { loadProblems } from '../helpers/decide-harness';

/**
 * A document of a policy file whose kind the loader does not know is told what was meant
 * (independent review): the closest kind, as a misspelt `mode` is, or, for a test suite saved
 * under a policy file's name, the `*.test.yaml` name it needs (the loader reads it as a policy).
 */
const KNOWN = 'Policy, Exception, EnvironmentAliases, ExceptionSettings';
const RULES = 'name: real\nrules:\n  - actions: {blockedKinds: [ATTACK]}\n';
const SUITE_BODY = 'defaults:\n  now: "2026-03-02T10:00:00Z"\ncases:\n  - name: a\n    expect: { decision: allow }\n';

describe('an unknown kind in a policy file', () => {
  test.each([
    [
      'misspelt',
      `kind: Polcy\n${RULES}`,
      `x.yaml:1:7 kind: kind must be one of ${KNOWN}, got "Polcy": did you mean "Policy"?`,
    ],
    [
      'in lower case',
      `kind: policy\n${RULES}`,
      `x.yaml:1:7 kind: kind must be one of ${KNOWN}, got "policy": did you mean "Policy"?`,
    ],
    [
      'a test suite',
      `kind: PolicyTestSuite\n${SUITE_BODY}`,
      `x.yaml:1:7 kind: kind must be one of ${KNOWN}, got "PolicyTestSuite": this is a test suite; rename the file to x.test.yaml (test suites are *.test.yaml files, run by \`preflight-gate test\`)`,
    ],
    [
      'a test suite without kind',
      SUITE_BODY,
      `x.yaml:1:1 kind must be one of ${KNOWN} (it is missing): this is a test suite; rename the file to x.test.yaml (test suites are *.test.yaml files, run by \`preflight-gate test\`)`,
    ],
    [
      'a property',
      'kind: PolicyProperty\nname: p\nnever: { allowed: true }\n',
      `x.yaml:1:7 kind: kind must be one of ${KNOWN}, got "PolicyProperty": this is a property; rename the file to x.property.yaml (properties are *.property.yaml files, answered by \`preflight-gate prove\`, docs/prove.md)`,
    ],
    ['near no kind', `kind: Rule\n${RULES}`, `x.yaml:1:7 kind: kind must be one of ${KNOWN}, got "Rule"`],
  ])('%s: what was meant', (_, text, problem) => {
    expect(loadProblems({ 'x.yaml': text })).toEqual([problem]);
  });
});
