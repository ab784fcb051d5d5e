import jsonLogic from 'json-logic-js';
import { conditionData, dataNeeds } from '../../src/policy/json-logic/condition-data';
import { ALLOWED_OPERATORS } from '../../src/policy/json-logic/operators';
import { createContext } from '../../src/policy/engine/create-context';
import { bundleFrom } from '../helpers/bundle-from';
import { preflightPayload } from '../helpers/fixtures';

type Expression = Parameters<typeof jsonLogic.apply>[0];

/**
 * Conditions of one request share their data object (and its parts), so no allowed operator may
 * write to what it reads. One expression per allowed operator, each reading arrays and objects of
 * the data; a json-logic-js upgrade or a newly allowed operator that writes shows up here.
 */
const EXPRESSIONS: Record<string, Expression> = {
  '==': { '==': [{ var: 'targets.total' }, 1] },
  '===': { '===': [{ var: 'steps.labels' }, { var: 'steps.labels' }] },
  '!=': { '!=': [{ var: 'steps.labels' }, 1] },
  '!==': { '!==': [{ var: 'targets.byType' }, 1] },
  '>': { '>': [{ var: 'targets.total' }, 0] },
  '>=': { '>=': [{ var: 'steps.labels' }, 0] },
  '<': { '<': [0, { var: 'targets.total' }, 9] },
  '<=': { '<=': [0, { var: 'targets.total' }, 9] },
  '!': { '!': [{ var: 'steps.labels' }] },
  '!!': { '!!': [{ var: 'targets.byType' }] },
  and: { and: [{ var: 'steps.labels' }, { var: 'targets.byType' }] },
  or: { or: [{ var: 'nothing' }, { var: 'targets.byType' }] },
  if: { if: [{ var: 'steps.labels' }, { var: 'targets.byType' }, { var: 'execution.steps' }] },
  '?:': { '?:': [{ var: 'steps.labels' }, { var: 'targets.byType' }, 0] },
  '+': { '+': [{ var: 'targets.total' }, { var: 'steps.count' }] },
  '-': { '-': [{ var: 'targets.total' }, 1] },
  '*': { '*': [{ var: 'targets.total' }, 2] },
  '/': { '/': [{ var: 'targets.total' }, 2] },
  '%': { '%': [{ var: 'steps.count' }, 2] },
  min: { min: [{ var: 'targets.total' }, { var: 'steps.count' }] },
  max: { max: [{ var: 'targets.total' }, { var: 'steps.count' }] },
  in: { in: ['x', { var: 'steps.labels' }] },
  cat: { cat: [{ var: 'steps.labels' }, { var: 'execution.teamKey' }] },
  substr: { substr: [{ var: 'execution.experimentKey' }, 1, 2] },
  merge: { merge: [{ var: 'steps.labels' }, { var: 'steps.actionIds' }, 'x'] },
  map: { map: [{ var: 'targets.byType' }, { var: 'count' }] },
  filter: { filter: [{ var: 'steps.labels' }, { '!=': [{ var: '' }, 'x'] }] },
  reduce: { reduce: [{ var: 'targets.byType' }, { '+': [{ var: 'accumulator' }, { var: 'current.count' }] }, 0] },
  all: { all: [{ var: 'targets.byType' }, { '>': [{ var: 'count' }, 0] }] },
  none: { none: [{ var: 'execution.steps' }, { var: 'radius' }] },
  some: { some: [{ var: 'execution.steps' }, { var: 'radius.predicate' }] },
  var: { var: 'execution.steps' },
  missing: { missing: ['execution.teamKey', 'execution.nothing'] },
  missing_some: { missing_some: [1, ['execution.teamKey', 'execution.nothing']] },
};

/** The expressions above that throw (and so could not write after the throw): pinned, so the test cannot pass vacuously. */
const THROWS: string[] = [];

test('every allowed operator has an expression here', () => {
  expect(Object.keys(EXPRESSIONS).sort()).toEqual([...ALLOWED_OPERATORS].sort());
});

test('no allowed operator writes to the data conditions share', () => {
  const bundle = bundleFrom({ 'p.yaml': 'kind: Policy\nname: p\nrules:\n  - environments: { blocked: [nowhere] }\n' });
  const ctx = createContext(bundle, preflightPayload(), {}, new Date('2026-01-05T10:00:00Z'), 'd');
  const needs = dataNeeds('UTC');
  const data = conditionData(ctx, ctx.actionSteps, needs);
  const before = JSON.stringify(data);
  const threw: string[] = [];
  for (const [operator, expression] of Object.entries(EXPRESSIONS)) {
    try {
      jsonLogic.apply(expression, data);
    } catch {
      // An operator may throw on such values (a condition then denies as undecidable); none here does.
      threw.push(operator);
    }
  }
  expect(JSON.stringify(data)).toBe(before);
  expect(threw).toEqual(THROWS);
  // The same object serves the next condition with the same needs.
  expect(conditionData(ctx, ctx.actionSteps, dataNeeds('UTC'))).toBe(data);
});
