import type { Step } from '../../../src/payload/types';
import { preflightWith } from '../../helpers/fixtures';
import { reasonsFor, withAttack } from '../../helpers/decide-harness';

const STRESS = 'com.steadybit.extension_container.stress_cpu';

/** The spec example plus a service validation whose nested action is a CHECK. */
const withValidation = (nested: Partial<Step>) =>
  preflightWith((p) => {
    p.execution.steps?.push({
      stepType: 'SERVICE-VALIDATION',
      parameters: { duration: '60s' },
      validations: [{ actionId: 'com.steadybit.extension_http.check', actionKind: 'CHECK', ...nested }],
    });
  });

describe('actions rule', () => {
  test.each([
    [
      'a blocked glob matching the step denies, naming step and action',
      'actions: {blocked: ["*stress*"]}',
      withAttack(() => {}),
      [`step "${STRESS}" (steps[1]) runs action ${STRESS}, which is blocked (matches "*stress*")`],
    ],
    [
      'blocked globs are case-insensitive',
      'actions: {blocked: ["*STRESS_CPU"]}',
      withAttack(() => {}),
      [expect.stringContaining('is blocked')],
    ],
    ['a blocked glob matching nothing passes', 'actions: {blocked: ["*shutdown*"]}', withAttack(() => {}), []],
    [
      'a step outside the allowed list denies',
      'actions: {allowed: ["com.steadybit.extension_http.*"]}',
      withAttack(() => {}),
      [
        expect.stringContaining(
          `runs action ${STRESS}, which is not one of the allowed actions (com.steadybit.extension_http.*)`,
        ),
      ],
    ],
    [
      'a step inside the allowed list passes',
      'actions: {allowed: ["com.steadybit.extension_container.*"]}',
      withAttack(() => {}),
      [],
    ],
    [
      'a custom label names the step',
      'actions: {blocked: ["*stress*"]}',
      withAttack((s) => {
        s.customLabel = 'burn cpu';
      }),
      [expect.stringContaining('step "burn cpu" (steps[1]) runs action')],
    ],
    [
      'only CHECK allowed: an ATTACK denies',
      'actions: {allowedKinds: [CHECK]}',
      withAttack(() => {}),
      [`step "${STRESS}" (steps[1]) runs ${STRESS}, an action of kind ATTACK; only CHECK actions are allowed`],
    ],
    [
      'blocked kind denies',
      'actions: {blockedKinds: [ATTACK]}',
      withAttack(() => {}),
      [expect.stringContaining('an action of kind ATTACK, which is blocked')],
    ],
    [
      'a nested service-validation action is judged too',
      'actions: {blocked: ["*http.check"]}',
      withValidation({}),
      [
        expect.stringContaining(
          'step "com.steadybit.extension_http.check" (steps[2].validations[0]) runs action com.steadybit.extension_http.check, which is blocked',
        ),
      ],
    ],
    [
      'no actionId cannot be decided for id lists',
      'actions: {allowed: ["*"]}',
      withAttack((s) => {
        delete s.actionId;
      }),
      ['cannot decide: step steps[1] has no actionId, so it cannot be checked against the blocked/allowed actions'],
    ],
    [
      'no actionKind cannot be decided for kind lists',
      'actions: {allowedKinds: [CHECK]}',
      withAttack((s) => {
        delete s.actionKind;
      }),
      [expect.stringMatching(/^cannot decide: step .* has no actionKind/)],
    ],
  ])('%s', (_name, rule, payload, expected) => {
    expect(reasonsFor(rule, payload)).toEqual(expected);
  });

  test('"only CHECK steps in prod-eu": the policy scope picks the environment, the rule the kind', () => {
    const scope = 'match: {environments: [prod-eu]}\n';
    const inProd = withAttack((_s, p) => {
      p.execution.environment = 'prod-eu';
    });
    const inDev = withAttack((_s, p) => {
      p.execution.environment = 'dev';
    });
    expect(reasonsFor('actions: {allowedKinds: [CHECK]}', inProd, scope)).toEqual([
      expect.stringContaining('only CHECK actions are allowed'),
    ]);
    expect(reasonsFor('actions: {allowedKinds: [CHECK]}', inDev, scope)).toEqual(['out of scope']);
  });

  test('match.actionIds narrows the steps the rule sees', () => {
    const scope = 'match: {actionKinds: [CHECK]}\n';
    expect(reasonsFor('actions: {blocked: ["*"]}', withValidation({}), scope)).toEqual([
      expect.stringContaining('steps[2].validations[0]'),
    ]);
  });
});
