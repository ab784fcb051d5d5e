import { MAX_VALIDATION_NESTING, validatePreflightPayload } from '../../src/payload/validate-payload';
import type { PreflightPayload } from '../../src/payload/types';
import { preflightPayload, preflightWith } from '../helpers/fixtures';

const DELETE = Symbol('delete');

/** A copy of the spec example with the value at `path` (e.g. `execution.steps[1].id`) replaced or deleted. */
function withValue(path: string, value: unknown): unknown {
  const root: unknown = preflightPayload();
  const keys = path.replace(/\[(\d+)\]/g, '.$1').split('.');
  const last = keys.pop() as string;
  let node = root as Record<string, unknown>;
  for (const key of keys) node = node[key] as Record<string, unknown>;
  if (value === DELETE) delete node[last];
  else node[last] = value;
  return root;
}

describe('preflight payload validation', () => {
  test.each<[string, unknown, string, string]>([
    [
      'a step count that is not an integer',
      withValue('execution.steps[1].totalTargetCount', '3'),
      'execution.steps[1].totalTargetCount',
      'must be integer',
    ],
    [
      'a negative step target count (it would offset another step in a total cap)',
      withValue('execution.steps[1].totalTargetCount', -20),
      'execution.steps[1].totalTargetCount',
      'must be >= 0',
    ],
    [
      'a negative radius maximum',
      withValue('execution.steps[1].radius.maximum', -1),
      'execution.steps[1].radius.maximum',
      'must be >= 0',
    ],
    [
      'a negative radius percentage',
      withValue('execution.steps[1].radius.percentage', -5),
      'execution.steps[1].radius.percentage',
      'must be >= 0',
    ],
    [
      'a radius percentage above 100',
      withValue('execution.steps[1].radius.percentage', 101),
      'execution.steps[1].radius.percentage',
      'must be <= 100',
    ],
    [
      'an empty team key (it would skip every policy matching teams, where a missing one does not)',
      withValue('execution.teamKey', ''),
      'execution.teamKey',
      'must NOT have fewer than 1 characters',
    ],
    [
      'an empty experiment key',
      withValue('execution.experimentKey', ''),
      'execution.experimentKey',
      'must NOT have fewer than 1 characters',
    ],
    [
      'an empty createdVia',
      withValue('execution.createdVia', ''),
      'execution.createdVia',
      'must NOT have fewer than 1 characters',
    ],
    ['an execution id that is not a number', withValue('execution.id', 'abc'), 'execution.id', 'must be integer'],
    ['a time that is not a date-time', withValue('time', 'yesterday'), 'time', 'must match format "date-time"'],
    [
      'an attribute without its key',
      withValue('execution.steps[1].targetExecutions[0].attributes[2].key', DELETE),
      'execution.steps[1].targetExecutions[0].attributes[2].key',
      'is required',
    ],
    [
      'a creator without a username',
      withValue('execution.createdBy', { name: 'Ann' }),
      'execution.createdBy.username',
      'is required',
    ],
    ['steps that are not a list', withValue('execution.steps', {}), 'execution.steps', 'must be array'],
    ['no event', withValue('event', DELETE), 'event', 'is required'],
    [
      'another event',
      withValue('event', 'experiment.execution.created'),
      'event',
      'must be "experiment.execution.preflight", got "experiment.execution.created"',
    ],
    ['no execution', withValue('execution', DELETE), 'execution', 'is required for a preflight decision'],
    ['a body that is a list', [], '(root)', 'must be object'],
    ['a body that is null', null, '(root)', 'must be object'],
  ])('rejects %s, naming the field path', (_name, body, path, message) => {
    const result = validatePreflightPayload(body);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors).toContainEqual({ path, message });
  });

  test.each<[string, PreflightPayload]>([
    [
      'unknown fields at every level (forward compatible)',
      preflightWith((p) => {
        Object.assign(p, { newTopLevel: 1 });
        Object.assign(p.execution, { newExecutionField: { a: 1 } });
        Object.assign(p.execution.steps?.[1] ?? {}, { newStepField: true });
      }),
    ],
    [
      'a createdVia value the spec does not list yet',
      preflightWith((p) => {
        p.execution.createdVia = 'ROBOT';
      }),
    ],
    [
      'an actionKind value the spec does not list yet',
      preflightWith((p) => {
        if (p.execution.steps?.[1]) p.execution.steps[1].actionKind = 'CHAOS_MONKEY';
      }),
    ],
    [
      'experimentVersion as a number (spec) and as a string (spec example)',
      preflightWith((p) => {
        p.execution.experimentVersion = 5;
      }),
    ],
    [
      'nine fractional digits in time',
      preflightWith((p) => {
        p.time = '2024-01-01T00:00:00.000000000Z';
      }),
    ],
    [
      'a wait step with neither actionId nor target',
      preflightWith((p) => {
        p.execution.steps = [{ parameters: { duration: '5s' } }];
      }),
    ],
    [
      'a user id that is not a valid UUID',
      preflightWith((p) => {
        p.execution.createdBy = { username: '13av2737-0000-4000-8000-000000000000' };
      }),
    ],
    [
      'a first step whose predecessorId is null',
      preflightWith((p) => {
        if (p.execution.steps?.[0]) p.execution.steps[0].predecessorId = null;
      }),
    ],
  ])('accepts %s', (_name, body) => {
    expect(validatePreflightPayload(body)).toEqual({ ok: true, payload: body });
  });
});

describe('validations nested inside validations', () => {
  /** The spec example with one more step whose validations nest `depth` levels deep, as raw JSON text (JSON.stringify would itself overflow at the deepest). */
  function nestedText(depth: number): string {
    const leaf = '{"actionId":"x.check","actionKind":"CHECK"}';
    const nested = '{"stepType":"SERVICE-VALIDATION","validations":['.repeat(depth) + leaf + ']}'.repeat(depth);
    const body = preflightWith((p) => {
      p.execution.steps?.push('__NESTED__' as never);
    });
    return JSON.stringify(body).replace('"__NESTED__"', nested);
  }
  const stepIndex = (preflightPayload().execution.steps ?? []).length;

  test(`accepts up to ${MAX_VALIDATION_NESTING} levels`, () => {
    expect(validatePreflightPayload(JSON.parse(nestedText(MAX_VALIDATION_NESTING))).ok).toBe(true);
  });

  test.each([MAX_VALIDATION_NESTING + 1, 60_000])(
    'rejects %i levels with the step and the limit, without overflowing',
    (depth) => {
      const result = validatePreflightPayload(JSON.parse(nestedText(depth)));
      expect(result).toEqual({
        ok: false,
        errors: [
          {
            path: `execution.steps[${stepIndex}]`,
            message: expect.stringContaining(`more than ${MAX_VALIDATION_NESTING} levels deep`),
          },
        ],
      });
    },
  );
});
