import { payload } from '../../helpers/fixtures';
import type { PreflightPayload } from '../../../src/payload/types';
import { decide } from '../../../src/policy/engine/decide';
import { bundleFrom } from '../../helpers/bundle-from';
import { NOW, policyDocument, reasonsFor, withAttack } from '../../helpers/decide-harness';

const S1 = 'step "com.steadybit.extension_container.stress_cpu" (steps[1])';
/** The spec example's attack with `parameters` replaced. */
const params = (parameters: Record<string, unknown> | undefined) =>
  withAttack((s) => {
    s.parameters = parameters;
  });
/** The docs payload: its attack sends cpuLoad as the string "1". */
const docs = () => ({
  ...payload<PreflightPayload>('docs-custom-webhook-execution-created.json'),
  event: 'experiment.execution.preflight' as const,
});

describe('parameters rule', () => {
  test.each([
    ['the real fixture (duration "30s") is within 5m', 'parameters: {duration: {max: 5m}}', withAttack(() => {}), []],
    [
      'a duration above the max denies, naming step, value and limit',
      'parameters: {duration: {max: 5m}}',
      params({ duration: '10m' }),
      [`${S1} sets duration to "10m", more than the 5m allowed`],
    ],
    [
      'compound durations compare by length',
      'parameters: {duration: {max: 1h30m}}',
      params({ duration: '1h31m' }),
      [expect.stringContaining('more than the 1h30m allowed')],
    ],
    [
      'a number in a duration is milliseconds',
      'parameters: {duration: {max: 5m}}',
      params({ duration: 300001 }),
      [`${S1} sets duration to 300001, more than the 5m allowed`],
    ],
    ['a number in a duration at the max passes', 'parameters: {duration: {max: 5m}}', params({ duration: 300000 }), []],
    [
      'a duration below the min denies',
      'parameters: {duration: {min: 10s}}',
      params({ duration: '500ms' }),
      [`${S1} sets duration to "500ms", less than the minimum 10s`],
    ],
    [
      "the real fixture's cpuLoad 100 (a number) is above 80",
      'parameters: {cpuLoad: {max: 80}}',
      withAttack(() => {}),
      [`${S1} sets cpuLoad to 100, more than the 80 allowed`],
    ],
    [
      'the docs payload\'s cpuLoad "1" (a string) is read as a number',
      'parameters: {cpuLoad: {min: 1, max: 80}}',
      docs(),
      [],
    ],
    [
      'the docs payload\'s cpuLoad "1" is below a min of 2',
      'parameters: {cpuLoad: {min: 2}}',
      docs(),
      [expect.stringContaining('sets cpuLoad to "1", less than the minimum 2')],
    ],
    [
      'a numeric string above the max denies',
      'parameters: {cpuLoad: {max: 80}}',
      params({ cpuLoad: '95' }),
      [`${S1} sets cpuLoad to "95", more than the 80 allowed`],
    ],
    [
      'a value that is not a number cannot be decided',
      'parameters: {cpuLoad: {max: 80}}',
      params({ cpuLoad: 'lots' }),
      [`cannot decide: ${S1} sets cpuLoad to "lots", which is not a number`],
    ],
    [
      'a value that is not a duration cannot be decided',
      'parameters: {duration: {max: 5m}}',
      params({ duration: '5 minutes' }),
      [`cannot decide: ${S1} sets duration to "5 minutes", which is not a duration`],
    ],
    [
      'a list value cannot be decided',
      'parameters: {cpuLoad: {max: 80}}',
      params({ cpuLoad: [1] }),
      [expect.stringMatching(/^cannot decide: .* sets cpuLoad to \[1\], which is not a number/)],
    ],
    [
      'a missing parameter denies by default and says what to do',
      'parameters: {cpuLoad: {max: 80}}',
      params({ duration: '30s' }),
      [
        `cannot decide: ${S1} sends no cpuLoad parameter (preflight requests may omit parameters); scope the policy to actions that have cpuLoad with match.actionIds, or set whenMissing: allow`,
      ],
    ],
    [
      'no parameters at all is missing too',
      'parameters: {duration: {max: 5m}}',
      params(undefined),
      [expect.stringContaining('sends no duration parameter')],
    ],
    [
      'a parameter named like an Object property is just missing',
      'parameters: {constructor: {max: 1}}',
      withAttack(() => {}),
      [expect.stringContaining('sends no constructor parameter')],
    ],
    [
      'whenMissing: allow lets a missing parameter pass',
      'parameters: {cpuLoad: {max: 80, whenMissing: allow}}',
      params({}),
      [],
    ],
    [
      'whenMissing: allow still judges a sent value',
      'parameters: {cpuLoad: {max: 80, whenMissing: allow}}',
      params({ cpuLoad: 81 }),
      [expect.stringContaining('more than the 80 allowed')],
    ],
    [
      'each limit is judged',
      'parameters: {cpuLoad: {max: 80}, duration: {max: 10s}}',
      withAttack(() => {}),
      [
        `${S1} sets cpuLoad to 100, more than the 80 allowed`,
        `${S1} sets duration to "30s", more than the 10s allowed`,
      ],
    ],
  ])('%s', (_name, rule, p, expected) => {
    expect(reasonsFor(rule, p)).toEqual(expected);
  });

  test('policies of one request each read a parameter as their own kind of value', () => {
    const named = (name: string, rule: string) => policyDocument(rule, '', name);
    const files = {
      'a.yaml': named('as-duration', 'parameters: {duration: {max: 5m}}'),
      'b.yaml': named('as-number', 'parameters: {duration: {max: 100000}}'),
      'c.yaml': named('other-name', 'parameters: {cpuLoad: {max: 80}}'),
    };
    const d = decide(
      bundleFrom(files, NOW),
      withAttack(() => {}),
      {},
      NOW,
      { decisionId: 'd-1' },
    );
    expect(Object.fromEntries(d.results.map((r) => [r.policy, r.reasons]))).toEqual({
      'as-duration': ['passed: rules[0].parameters'],
      'as-number': [`cannot decide: ${S1} sets duration to "30s", which is not a number`],
      'other-name': [`${S1} sets cpuLoad to 100, more than the 80 allowed`],
    });
  });

  test('scoped to an action, other steps are not asked for its parameters', () => {
    const scope = 'match: {actionIds: ["*stress_cpu"]}\n';
    const withCheck = withAttack((_s, p) => {
      p.execution.steps?.push({ actionId: 'com.steadybit.extension_http.check', actionKind: 'CHECK', parameters: {} });
    });
    expect(reasonsFor('parameters: {cpuLoad: {max: 100}}', withCheck, scope)).toEqual([]);
  });
});
