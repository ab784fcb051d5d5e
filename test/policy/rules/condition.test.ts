import type { PreflightPayload } from '../../../src/policy/core/decision';
import { decideAt, loadProblems, policyDocument } from '../../helpers/decide-harness';

const aliases = `
kind: EnvironmentAliases
aliases:
  production: [32009f6e-ff90-47a5-8daa-80f4bb7ae591]
`;
const NOW = '2026-01-05T10:00:00Z'; // Monday 11:00 in Berlin
const condition = (spec: string, extra = '') => ({
  'a.yaml': aliases,
  'p.yaml': policyDocument(`condition: ${spec}`, extra, 'under-test'),
});

describe('condition rule: json-logic over the payload and derived facts', () => {
  test.each([
    ['targets.total counts the expected targets (1)', '{deny: {">": [{var: targets.total}, 0]}, reason: r}', false],
    ['targets.total under a cap passes', '{deny: {">": [{var: targets.total}, 5]}, reason: r}', true],
    [
      'targets.byType lists counts per target type',
      '{require: {some: [{var: targets.byType}, {and: [{"==": [{var: type}, com.steadybit.extension_container.container]}, {"==": [{var: count}, 1]}]}]}, reason: r}',
      true,
    ],
    ['steps.count counts every step (2)', '{require: {"==": [{var: steps.count}, 2]}, reason: r}', true],
    [
      'steps.actionCount counts the action steps in scope (1)',
      '{require: {"==": [{var: steps.actionCount}, 1]}, reason: r}',
      true,
    ],
    [
      'steps.actionIds lists the matched action ids',
      '{deny: {in: [com.steadybit.extension_container.stress_cpu, {var: steps.actionIds}]}, reason: r}',
      false,
    ],
    [
      'steps.actionKinds lists the matched kinds',
      '{require: {in: [ATTACK, {var: steps.actionKinds}]}, reason: r}',
      true,
    ],
    ['environments.names holds the alias', '{deny: {in: [production, {var: environments.names}]}, reason: r}', false],
    [
      'environments.values holds the id as sent',
      '{require: {in: [32009f6e-ff90-47a5-8daa-80f4bb7ae591, {var: environments.values}]}, reason: r}',
      true,
    ],
    [
      'execution is a shortcut for payload.execution',
      '{require: {"==": [{var: execution.teamKey}, {var: payload.execution.teamKey}]}, reason: r}',
      true,
    ],
    [
      'payload fields by path, arrays by index',
      '{require: {"==": [{var: execution.steps.1.radius.percentage}, 50]}, reason: r}',
      true,
    ],
    ['now is the pinned time', '{require: {"==": [{var: now}, "2026-01-05T10:00:00.000Z"]}, reason: r}', true],
    [
      'time.hour in the rule zone (Berlin 11)',
      '{require: {"==": [{var: time.hour}, 11]}, reason: r, timeZone: Europe/Berlin}',
      true,
    ],
    ['time.hour defaults to UTC (10)', '{require: {"==": [{var: time.hour}, 10]}, reason: r}', true],
    [
      'time.weekday is the short day name',
      '{require: {"==": [{var: time.weekday}, Mon]}, reason: r, timeZone: America/New_York}',
      true,
    ],
    [
      'time.date is the local date (already Tuesday in Kiritimati)',
      '{require: {"==": [{var: time.date}, "2026-01-06"]}, reason: r, timeZone: Pacific/Kiritimati}',
      true,
    ],
    [
      'time.weekday follows the zone',
      '{deny: {"==": [{var: time.weekday}, Tue]}, reason: r, timeZone: Pacific/Kiritimati}',
      false,
    ],
    [
      'a missing path reads as null, so the data has no prototype members',
      '{require: {and: [{"==": [{var: execution.toString}, null]}, {"==": [{var: payload.hasOwnProperty}, null]}]}, reason: r}',
      true,
    ],
  ])('%s', (_name, spec, allowed) => {
    const d = decideAt(condition(spec), NOW);
    expect(d.allowed).toBe(allowed);
    if (!allowed) expect(d.message).toContain('[under-test] r');
  });

  test('the policy scope narrows the steps a condition sees', () => {
    const spec =
      '{require: {and: [{"==": [{var: targets.total}, 3]}, {"==": [{var: steps.actionCount}, 1]}, {in: [com.steadybit.extension_host.stress_mem, {var: steps.actionIds}]}]}, reason: r}';
    const withMemStep = (p: PreflightPayload) => {
      p.execution.steps?.push({
        actionId: 'com.steadybit.extension_host.stress_mem',
        actionKind: 'ATTACK',
        totalTargetCount: 3,
        radius: { targetType: 'com.steadybit.extension_host.host' },
      });
    };
    const scoped = decideAt(condition(spec, 'match:\n  actionIds: ["*stress_mem*"]\n'), NOW, withMemStep);
    expect(scoped.results[0]).toMatchObject({ result: 'pass' });
    const unscoped = decideAt(condition(spec), NOW, withMemStep);
    expect(unscoped.results[0]).toMatchObject({ result: 'deny' });
  });

  test('conditions of one request each see their own step scope, time zone and data', () => {
    const files = {
      'a.yaml': aliases,
      'p1.yaml': policyDocument(
        'condition: {require: {and: [{"==": [{var: targets.total}, 3]}, {"==": [{var: steps.actionCount}, 1]}]}, reason: r}',
        'match:\n  actionIds: ["*stress_mem*"]\n',
        'mem-only',
      ),
      'p2.yaml': policyDocument(
        'condition: {require: {and: [{"==": [{var: targets.total}, 4]}, {"==": [{var: steps.actionCount}, 2]}]}, reason: r}',
        '',
        'all-steps',
      ),
      'p3.yaml': policyDocument(
        'condition: {require: {"==": [{var: time.hour}, 11]}, reason: r, timeZone: Europe/Berlin}',
        '',
        'berlin',
      ),
      'p4.yaml': policyDocument('condition: {require: {"==": [{var: time.hour}, 10]}, reason: r}', '', 'utc'),
      'p5.yaml': policyDocument(
        'condition: {require: {"==": [{var: now}, "2026-01-05T10:00:00.000Z"]}, reason: r}',
        '',
        'now',
      ),
    };
    const d = decideAt(files, NOW, (p) => {
      p.execution.steps?.push({
        actionId: 'com.steadybit.extension_host.stress_mem',
        actionKind: 'ATTACK',
        totalTargetCount: 3,
        radius: { targetType: 'com.steadybit.extension_host.host' },
      });
    });
    expect(Object.fromEntries(d.results.map((r) => [r.policy, r.result]))).toEqual({
      'mem-only': 'pass',
      'all-steps': 'pass',
      berlin: 'pass',
      utc: 'pass',
      now: 'pass',
    });
  });

  test('an exception while applying the expression cannot decide, and denies', () => {
    const d = decideAt(condition('{deny: {cat: [{var: execution}]}, reason: no x}'), NOW);
    expect(d.allowed).toBe(false);
    expect(d.message).toMatch(/cannot decide: the condition failed while evaluating \(.+\); it guards: no x/);
  });

  test.each([
    [
      'the method operator',
      '{deny: {method: [{var: execution.name}, toUpperCase]}, reason: r}',
      'rules[0].condition.deny.method: operator "method" is not allowed',
    ],
    [
      'an unknown operator',
      '{deny: {regex: [a, b]}, reason: r}',
      'rules[0].condition.deny.regex: unknown operator "regex"',
    ],
    ['the log operator (a side effect)', '{deny: {log: a}, reason: r}', 'unknown operator "log"'],
    ['a dotted operator name', '{deny: {"Math.max": [1, 2]}, reason: r}', 'unknown operator "Math.max"'],
    [
      'a nested unknown operator, located',
      '{deny: {and: [true, {or: [{eval: x}]}]}, reason: r}',
      'rules[0].condition.deny.and[1].or[0].eval: unknown operator',
    ],
    [
      'var reaching __proto__',
      '{deny: {var: execution.__proto__.polluted}, reason: r}',
      'data path "execution.__proto__.polluted" reaches "__proto__"',
    ],
    ['var reaching constructor', '{deny: {var: "constructor"}, reason: r}', 'reaches "constructor"'],
    [
      'var reaching prototype',
      '{require: {var: [execution.constructor.prototype, 1]}, reason: r}',
      'rules[0].condition.require.var[0]: data path',
    ],
    [
      'a var path computed at run time',
      '{deny: {var: {cat: [__pro, to__]}}, reason: r}',
      'a data path must be a literal string',
    ],
    [
      'missing reaching __proto__',
      '{deny: {missing: [a, __proto__]}, reason: r}',
      'rules[0].condition.deny.missing[1]: data path "__proto__"',
    ],
    [
      'missing_some reaching prototype',
      '{deny: {missing_some: [1, [a, b.prototype]]}, reason: r}',
      'rules[0].condition.deny.missing_some[1][1]',
    ],
    [
      'var inside map reaching constructor',
      '{deny: {map: [{var: steps.actionIds}, {var: constructor}]}, reason: r}',
      'reaches "constructor"',
    ],
    [
      'a path outside the documented data (a typo)',
      '{deny: {"==": [{var: exectuion.teamKey}, ADM]}, reason: r}',
      'rules[0].condition.deny: unknown data "exectuion"; a path starts with one of payload, execution, now, time, environments, steps, targets',
    ],
    ['an object with two keys', '{deny: {"==": [1, 1], "!=": [1, 2]}, reason: r}', 'must be one operation'],
    ['both deny and require', '{deny: true, require: true, reason: r}', 'give exactly one of deny'],
    ['an empty expression', '{deny: null, reason: r}', 'rules[0].condition.deny: deny has no expression'],
    ['neither deny nor require', '{reason: r}', 'give exactly one of deny'],
    ['no reason', '{deny: true}', 'rules[0].condition: reason is required'],
    ['an unknown time zone', '{deny: true, reason: r, timeZone: Mars/Olympus}', 'unknown time zone "Mars/Olympus"'],
  ])('rejects %s at load time, with its path', (_name, spec, expected) => {
    const problems = loadProblems(condition(spec)).join('\n');
    expect(problems).toContain(expected);
    expect(problems).toMatch(/^p\.yaml:\d+:\d+ rules\[0\]\.condition/);
  });

  test('a rejected expression never pollutes Object.prototype', () => {
    loadProblems(condition('{deny: {var: __proto__.polluted}, reason: r}'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
