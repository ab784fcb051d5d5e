import { checkCase } from '../../src/cli/suite/check-case';
import { applyPatch, parsePatchPath } from '../../src/cli/suite/payload-patch';
import type { Decision, PolicyResult } from '../../src/policy/types';

describe('patch paths', () => {
  it.each([
    ['execution.environment', ['execution', 'environment']],
    ['execution.steps[1].radius.percentage', ['execution', 'steps', 1, 'radius', 'percentage']],
    ['execution.steps[0].targetExecutions[2].attributes[0].value', ['execution', 'steps', 0, 'targetExecutions', 2, 'attributes', 0, 'value']],
    ['a[0][1]', ['a', 0, 1]],
  ])('%s splits into its segments', (text, path) => {
    expect(parsePatchPath(text)).toEqual(path);
  });

  it.each([['a..b'], ['[0].a'], ['a.'], ['a[x]'], ['']])('"%s" is not a field path', (text) => {
    expect(() => parsePatchPath(text)).toThrow(/is not a field path|must start with a field name/);
  });
});

describe('applyPatch', () => {
  const payload = { event: 'e', execution: { environment: 'dev', steps: [{ actionId: 'a', parameters: { cpuLoad: 10 } }] } };

  it.each([
    ['sets one field', { 'execution.environment': 'prod' }, [], { ...payload, execution: { ...payload.execution, environment: 'prod' } }],
    ['sets a field inside a list item', { 'execution.steps[0].parameters.cpuLoad': 90 }, [], { ...payload, execution: { ...payload.execution, steps: [{ actionId: 'a', parameters: { cpuLoad: 90 } }] } }],
    ['appends at the end of a list', { 'execution.steps[1]': { actionId: 'b' } }, [], { ...payload, execution: { ...payload.execution, steps: [...payload.execution.steps, { actionId: 'b' }] } }],
    ['creates missing objects on the way', { 'execution.overrides.environment': 'prod' }, [], { ...payload, execution: { ...payload.execution, overrides: { environment: 'prod' } } }],
    ['removes a field', {}, ['execution.environment'], { ...payload, execution: { steps: payload.execution.steps } }],
    ['removes a list item', {}, ['execution.steps[0]'], { ...payload, execution: { ...payload.execution, steps: [] } }],
  ])('%s, on a copy', (_name, patch, unset, expected) => {
    const before = JSON.stringify(payload);
    expect(applyPatch(payload, patch, unset)).toEqual(expected);
    expect(JSON.stringify(payload)).toBe(before);
  });

  it.each([
    ['an index beyond the end', { 'execution.steps[5].actionId': 'x' }, [], /index 5 is beyond the end of a list of 1/],
    ['a name on a list', { 'execution.steps.first': 'x' }, [], /first is a name, but the field is a list/],
    ['an index on an object', { 'execution[0]': 'x' }, [], /\[0\] indexes a field that is not a list/],
    ['a path through a string', { 'execution.environment.name': 'x' }, [], /execution\.environment is "dev", not an object or a list/],
    ['__proto__', { '__proto__.polluted': true }, [], /may not use __proto__/],
    ['unsetting a field that is not there', {}, ['execution.nope'], /unset "execution\.nope": the payload has no such field/],
  ])('refuses %s', (_name, patch, unset, message) => {
    expect(() => applyPatch(payload, patch, unset)).toThrow(message);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('checkCase', () => {
  const result = (policy: string, kind: PolicyResult['result'], reasons: string[] = []): PolicyResult => ({
    policy, mode: kind === 'warn' ? 'warn' : 'enforce', priority: 100, result: kind, reasons, source: { file: 'p.yaml', line: 1, col: 1 },
  });
  const decision = (over: Partial<Decision>): Decision => ({
    id: 'test', allowed: true, message: 'Allowed: 2 of 2 policies applied, none denied.', modifications: [], conflicts: [], revision: 'abc', evaluatedAt: '', results: [], ...over,
  });
  const denied = decision({ allowed: false, message: 'Denied by 1 policy: [a] too big', results: [result('a', 'deny', ['too big']), result('b', 'pass')] });
  const tagged = decision({ results: [result('a', 'pass'), result('w', 'warn', ['late'])], modifications: [{ type: 'set_property_value', propertyKey: 'k', value: 'test-1' }] });

  it.each([
    ['a denial as expected', { decision: 'deny' as const, denied: ['a'], message: 'too big' }, denied],
    ['an allowed run with its warning and modification', { decision: 'allow' as const, warned: ['w'], modifications: [{ type: 'set_property_value' as const, propertyKey: 'k', valuePattern: '^test-\\d$' }] }, tagged],
    ['per-policy results', { decision: 'deny' as const, denied: ['a'], results: { b: 'pass' as const } }, denied],
  ])('passes %s', (_name, expect_, d) => {
    expect(checkCase(expect_, d)).toEqual([]);
  });

  it.each([
    ['the wrong decision', { decision: 'allow' as const, denied: ['a'] }, denied, ['decision: expected allow, got deny ("Denied by 1 policy: [a] too big")']],
    ['a denier left out of the exact set', { decision: 'deny' as const }, denied, ['denied: expected (none), got a', '  a denied unexpectedly (deny: too big)']],
    ['an expected denier that passed', { decision: 'allow' as const, denied: ['b'], warned: ['w'] }, tagged, ['denied: expected b, got (none)', '  no policy denied at all', '  b did not deny (not evaluated)']],
    ['a warning left out', { decision: 'allow' as const }, tagged, ['warned: expected (none), got w', '  w warned unexpectedly (warn: late)']],
    ['a message that does not match', { decision: 'deny' as const, denied: ['a'], message: '^Allowed' }, denied, ['message: expected to match /^Allowed/, got "Denied by 1 policy: [a] too big"']],
    ['a per-policy result', { decision: 'deny' as const, denied: ['a'], results: { b: 'skipped' as const } }, denied, ['results.b: expected skipped, got pass']],
    ['an unexpected modification', { decision: 'allow' as const, warned: ['w'], modifications: [] }, tagged, ['modifications: expected 0, got 1', '  unexpected: set_property_value k="test-1"']],
  ])('fails on %s, saying what it expected and got', (_name, expect_, d, failures) => {
    expect(checkCase(expect_, d)).toEqual(failures);
  });
});
