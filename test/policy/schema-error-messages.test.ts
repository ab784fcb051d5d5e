import { ajv } from '../../src/validation/ajv';
import { toFieldErrors, validated } from '../../src/validation/field-errors';
import { loadProblems, policyDocument } from '../helpers/decide-harness';

/**
 * Schema errors read as one line per mistake: the field, what was written and what is allowed.
 * A failed anyOf/oneOf says only what is wrong in the branch the value was meant for (ajv's
 * "must be equal to constant" and "must match a schema in anyOf" are not for people), and an
 * unknown field lists the fields allowed there, with the closest.
 */
const TIME_WINDOW = 'timeWindow: { timeZone: UTC, allowed: [{ from: "09:00", to: "17:00" }] }';
const whileRunning = (value: string) => ({ 'p.yaml': policyDocument(TIME_WINDOW, `whileRunning: ${value}\n`) });

describe('whileRunning (true or an object: an anyOf)', () => {
  test.each([
    [
      'a misspelt onCannotJudge',
      '{ onCannotJudge: stpo }',
      'p.yaml:3:32 whileRunning.onCannotJudge: must be one of report, stop, got "stpo": did you mean "stop"?',
    ],
    [
      'an onCannotJudge far from any value',
      '{ onCannotJudge: deny }',
      'p.yaml:3:32 whileRunning.onCannotJudge: must be one of report, stop, got "deny"',
    ],
    ['a value of neither shape', 'yes', 'p.yaml:3:15 whileRunning: must be true or an object, got "yes"'],
    ['false', 'false', 'p.yaml:3:15 whileRunning: must be true or an object, got false'],
    [
      'an unknown field in the object',
      '{ onCannotJudge: stop, every: 5s }',
      'p.yaml:3:38 whileRunning.every: every is not a known field (known fields: onCannotJudge)',
    ],
  ])('%s is one line naming the field, the value and what is allowed', (_, value, line) => {
    expect(loadProblems(whileRunning(value))).toEqual([line]);
  });
});

describe('an unknown field in a rule', () => {
  test('lists the fields of the rule and suggests those it begins', () => {
    expect(loadProblems({ 'p.yaml': policyDocument('targets: {max: 1}') })).toEqual([
      'p.yaml:4:15 rules[0].targets.max: max is not a known field: did you mean one of "maxPerStep", "maxTotal", "maxPercentage"? (known fields: maxPerStep, maxTotal, perType, maxPercentage, requireMaximum, denyEmpty)',
    ]);
  });

  test('suggests the closest field within two edits', () => {
    expect(loadProblems({ 'p.yaml': policyDocument('targets: {maxPerStpe: 1}') })).toEqual([
      'p.yaml:4:15 rules[0].targets.maxPerStpe: maxPerStpe is not a known field: did you mean "maxPerStep"? (known fields: maxPerStep, maxTotal, perType, maxPercentage, requireMaximum, denyEmpty)',
    ]);
  });

  test('a field near none is still told the fields allowed', () => {
    expect(loadProblems({ 'p.yaml': policyDocument('targets: {zz: 1}') })).toEqual([
      'p.yaml:4:15 rules[0].targets.zz: zz is not a known field (known fields: maxPerStep, maxTotal, perType, maxPercentage, requireMaximum, denyEmpty)',
    ]);
  });
});

describe('the general mechanism, on any schema (toFieldErrors)', () => {
  const validate = ajv.compile({
    type: 'object',
    additionalProperties: false,
    properties: {
      twin: {
        oneOf: [
          { type: 'object', required: ['a'], properties: { a: { type: 'string' } } },
          { type: 'object', required: ['b'], properties: { b: { type: 'string' } } },
        ],
      },
      size: {
        oneOf: [
          { type: 'integer', minimum: 1 },
          {
            type: 'object',
            additionalProperties: false,
            properties: { unit: { enum: ['kb', 'mb'] }, n: { anyOf: [{ const: 'all' }, { type: 'integer' }] } },
          },
        ],
      },
    },
  });
  const errors = (value: unknown) => {
    validate(value);
    return toFieldErrors(validate.errors, validated(validate, value)).map((e) => `${e.path}: ${e.message}`);
  };

  test.each<[string, unknown, string[]]>([
    ['the wrong shape for every branch', { size: 'big' }, ['size: must be an integer or an object, got "big"']],
    ['a mistake inside the branch meant', { size: 0 }, ['size: must be >= 1']],
    ['a mistake in a nested branch', { size: { unit: 'gb' } }, ['size.unit: must be one of kb, mb, got "gb"']],
    ['alternatives inside alternatives', { size: { n: 'some' } }, ['size.n: must be "all" or an integer, got "some"']],
    ['an unknown field outside', { sise: 1 }, ['sise: is not a known field; known fields: twin, size']],
    ['branches of the same shape, told once', { twin: 'x' }, ['twin: must be object']],
  ])('%s is one line', (_, value, lines) => {
    expect(errors(value)).toEqual(lines);
  });

  test('without the input, the same lines without the value written or the fields known', () => {
    validate({ size: { unit: 'gb' }, sise: 1 });
    expect(toFieldErrors(validate.errors).map((e) => `${e.path}: ${e.message}`)).toEqual([
      'sise: is not a known field',
      'size.unit: must be one of kb, mb',
    ]);
  });
});
