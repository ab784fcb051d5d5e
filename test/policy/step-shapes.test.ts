import type { PreflightPayload, Step } from '../../src/payload/types';
import { preflightWith } from '../helpers/fixtures';
import { reasonsFor } from '../helpers/decide-harness';

/** The spec example with its steps replaced. */
const withSteps = (...steps: Step[]): PreflightPayload =>
  preflightWith((p) => {
    p.execution.steps = steps;
  });
const wait: Step = { parameters: { duration: '10s' } };

describe('steps whose shape does not say they are waits are judged as actions (unknown never hides a step)', () => {
  test.each<[string, string, PreflightPayload, RegExp | null]>([
    [
      'a step with a target count but no actionId',
      'parameters: {duration: {max: 5m}}',
      withSteps(wait, { totalTargetCount: 3, parameters: { duration: '10h' } }),
      /sets duration to "10h", more than the 5m allowed/,
    ],
    [
      'a step of an action step type without actionId',
      'parameters: {duration: {max: 5m}}',
      withSteps({ stepType: 'ACTION', parameters: { duration: '10h' } }),
      /sets duration to "10h", more than the 5m allowed/,
    ],
    [
      'an action nested in a nested validation',
      'actions: {blocked: ["*shutdown*"]}',
      withSteps({
        stepType: 'SERVICE-VALIDATION',
        validations: [
          {
            actionId: 'x.check',
            actionKind: 'CHECK',
            validations: [{ actionId: 'host.shutdown', actionKind: 'ATTACK' }],
          },
        ],
      }),
      /steps\[0\]\.validations\[0\]\.validations\[0\]\) runs action host\.shutdown, which is blocked/,
    ],
    [
      'a wait step is still no action',
      'parameters: {duration: {max: 5m}}',
      withSteps(wait, { stepType: 'WAIT', parameters: { duration: '1h' } }),
      null,
    ],
    [
      'a service validation itself is no action',
      'parameters: {duration: {max: 5m}}',
      withSteps({ stepType: 'SERVICE-VALIDATION', parameters: { duration: '1h' }, validations: [] }),
      null,
    ],
  ])('%s', (_name, rule, payload, reason) => {
    const reasons = reasonsFor(rule, payload);
    if (reason === null) expect(reasons).toEqual([]);
    else expect(reasons).toEqual([expect.stringMatching(reason)]);
  });
});
