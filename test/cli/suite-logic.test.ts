import { checkCase } from '../../src/cli/suite/check-case';
import { applyPatch, parsePatchPath } from '../../src/cli/suite/payload-patch';
import type { Decision, PolicyResult } from '../../src/policy/core/decision';

describe('patch paths', () => {
  it.each([
    ['execution.environment', ['execution', 'environment']],
    ['execution.steps[1].radius.percentage', ['execution', 'steps', 1, 'radius', 'percentage']],
    [
      'execution.steps[0].targetExecutions[2].attributes[0].value',
      ['execution', 'steps', 0, 'targetExecutions', 2, 'attributes', 0, 'value'],
    ],
    ['a[0][1]', ['a', 0, 1]],
  ])('%s splits into its segments', (text, path) => {
    expect(parsePatchPath(text)).toEqual(path);
  });

  it.each([['a..b'], ['[0].a'], ['a.'], ['a[x]'], ['']])('"%s" is not a field path', (text) => {
    expect(() => parsePatchPath(text)).toThrow(/is not a field path|must start with a field name/);
  });
});

describe('applyPatch', () => {
  const payload = {
    event: 'e',
    execution: { environment: 'dev', steps: [{ actionId: 'a', parameters: { cpuLoad: 10 } }] },
  };

  it.each([
    [
      'patch changes one field',
      { patch: { 'execution.environment': 'prod' } },
      { ...payload, execution: { ...payload.execution, environment: 'prod' } },
    ],
    [
      'patch changes a field inside a list item',
      { patch: { 'execution.steps[0].parameters.cpuLoad': 90 } },
      { ...payload, execution: { ...payload.execution, steps: [{ actionId: 'a', parameters: { cpuLoad: 90 } }] } },
    ],
    [
      'add appends at the end of a list',
      { add: { 'execution.steps[1]': { actionId: 'b' } } },
      { ...payload, execution: { ...payload.execution, steps: [...payload.execution.steps, { actionId: 'b' }] } },
    ],
    [
      'add creates missing objects on the way',
      { add: { 'execution.overrides.environment': 'prod' } },
      { ...payload, execution: { ...payload.execution, overrides: { environment: 'prod' } } },
    ],
    [
      'patch changes what add created',
      { add: { 'execution.overrides': { environment: 'a' } }, patch: { 'execution.overrides.environment': 'b' } },
      { ...payload, execution: { ...payload.execution, overrides: { environment: 'b' } } },
    ],
    [
      'unset removes a field',
      { unset: ['execution.environment'] },
      { ...payload, execution: { steps: payload.execution.steps } },
    ],
    [
      'unset removes a list item',
      { unset: ['execution.steps[0]'] },
      { ...payload, execution: { ...payload.execution, steps: [] } },
    ],
  ])('%s, on a copy', (_name, edits, expected) => {
    const before = JSON.stringify(payload);
    expect(applyPatch(payload, edits)).toEqual(expected);
    expect(JSON.stringify(payload)).toBe(before);
  });

  it.each([
    // A misspelt patch path must not quietly add a field (the case would then test nothing).
    [
      'a misspelt last segment',
      { patch: { 'execution.enviroment': 'prod' } },
      /patch "execution\.enviroment": execution has no field enviroment \(its fields: environment, steps\); a field the payload lacks is added under add/,
    ],
    [
      'a misspelt segment on the way',
      { patch: { 'execution.step[0].actionId': 'x' } },
      /patch "execution\.step\[0\]\.actionId": execution has no field step \(its fields: environment, steps\)/,
    ],
    [
      'a field the payload lacks, under patch',
      { patch: { 'execution.overrides.environment': 'prod' } },
      /execution has no field overrides/,
    ],
    [
      'an index one past the end, under patch',
      { patch: { 'execution.steps[1]': { actionId: 'b' } } },
      /index 1 is beyond the end of a list of 1/,
    ],
    [
      'an index beyond the end, under add',
      { add: { 'execution.steps[5].actionId': 'x' } },
      /index 5 is beyond the end of a list of 1/,
    ],
    [
      'a field that exists, under add',
      { add: { 'execution.environment': 'prod' } },
      /add "execution\.environment": the payload already has this field: change it under patch/,
    ],
    ['a name on a list', { patch: { 'execution.steps.first': 'x' } }, /first is a name, but the field is a list/],
    ['an index on an object', { patch: { 'execution[0]': 'x' } }, /\[0\] indexes a field that is not a list/],
    [
      'a path through a string',
      { add: { 'execution.environment.name': 'x' } },
      /execution\.environment is "dev", not an object or a list/,
    ],
    ['__proto__', { add: { '__proto__.polluted': true } }, /may not use __proto__/],
    [
      'unsetting a field that is not there',
      { unset: ['execution.nope'] },
      /unset "execution\.nope": the payload has no such field/,
    ],
  ])('refuses %s, naming the path', (_name, edits, message) => {
    expect(() => applyPatch(payload, edits)).toThrow(message);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('says which section and entry failed', () => {
    expect(() => applyPatch(payload, { unset: ['execution.environment', 'execution.nope'] })).toThrow(
      expect.objectContaining({ section: 'unset', entry: 1 }),
    );
    expect(() => applyPatch(payload, { patch: { 'execution.enviroment': 1 } })).toThrow(
      expect.objectContaining({ section: 'patch', entry: 'execution.enviroment' }),
    );
  });
});

describe('checkCase', () => {
  const result = (policy: string, kind: PolicyResult['result'], reasons: string[] = []): PolicyResult => ({
    policy,
    mode: kind === 'warn' ? 'warn' : 'enforce',
    priority: 100,
    result: kind,
    reasons,
    source: { file: 'p.yaml', line: 1, col: 1 },
  });
  const decision = (over: Partial<Decision>): Decision => ({
    id: 'test',
    allowed: true,
    message: 'Allowed: 2 of 2 policies applied, none denied.',
    modifications: [],
    conflicts: [],
    revision: 'abc',
    evaluatedAt: '',
    results: [],
    ...over,
  });
  const denied = decision({
    allowed: false,
    message: 'Denied by 1 policy: [a] too big',
    results: [result('a', 'deny', ['too big']), result('b', 'pass')],
  });
  const tagged = decision({
    results: [result('a', 'pass'), result('w', 'warn', ['late'])],
    modifications: [{ type: 'set_property_value', propertyKey: 'k', value: 'test-1' }],
  });

  it.each([
    ['a denial as expected', { decision: 'deny' as const, denied: ['a'], message: 'too big' }, denied],
    [
      'an allowed run with its warning and modification',
      {
        decision: 'allow' as const,
        warned: ['w'],
        modifications: [{ type: 'set_property_value' as const, propertyKey: 'k', valuePattern: '^test-\\d$' }],
      },
      tagged,
    ],
    ['per-policy results', { decision: 'deny' as const, denied: ['a'], results: { b: 'pass' as const } }, denied],
  ])('passes %s', (_name, expect_, d) => {
    expect(checkCase(expect_, d)).toEqual([]);
  });

  it.each([
    [
      'the wrong decision',
      { decision: 'allow' as const, denied: ['a'] },
      denied,
      ['decision: expected allow, got deny ("Denied by 1 policy: [a] too big")'],
    ],
    [
      'a denier left out of the exact set',
      { decision: 'deny' as const },
      denied,
      ['denied: expected (none), got a', '  a denied unexpectedly (deny: too big)'],
    ],
    [
      'an expected denier that passed',
      { decision: 'allow' as const, denied: ['b'], warned: ['w'] },
      tagged,
      ['denied: expected b, got (none)', '  no policy denied at all', '  b did not deny (not evaluated)'],
    ],
    [
      'a warning left out',
      { decision: 'allow' as const },
      tagged,
      ['warned: expected (none), got w', '  w warned unexpectedly (warn: late)'],
    ],
    [
      'a message that does not match',
      { decision: 'deny' as const, denied: ['a'], message: '^Allowed' },
      denied,
      ['message: expected to match /^Allowed/, got "Denied by 1 policy: [a] too big"'],
    ],
    [
      'a per-policy result',
      { decision: 'deny' as const, denied: ['a'], results: { b: 'skipped' as const } },
      denied,
      ['results.b: expected skipped, got pass'],
    ],
    [
      'an unexpected modification',
      { decision: 'allow' as const, warned: ['w'], modifications: [] },
      tagged,
      ['modifications: expected 0, got 1', '  unexpected: set_property_value k="test-1"'],
    ],
  ])('fails on %s, saying what it expected and got', (_name, expect_, d, failures) => {
    expect(checkCase(expect_, d)).toEqual(failures);
  });
});
