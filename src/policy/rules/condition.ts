import jsonLogic from 'json-logic-js';
import { checkExpression } from '../json-logic/check-expression';
import { compileSimple } from '../json-logic/compile-simple';
import { conditionData, DATA_ROOTS, dataNeeds } from '../json-logic/condition-data';
import { dataRoots } from '../json-logic/data-roots';
import { ENVIRONMENT_NAMES } from '../facts/environment-facts';
import { defineRule, RuleSpecError } from '../core/rule-kind';
import { findings } from '../core/checked';
import { checkZone } from '../time/zone';

type Expression = Parameters<typeof jsonLogic.apply>[0];
interface Spec {
  deny?: Expression;
  require?: Expression;
  reason: string;
  timeZone?: string;
}

const expression = { description: 'A json-logic expression over the condition data (docs/policies.md, "condition").' };

/**
 * The escape hatch: `- condition: {deny: {">": [{"var": "targets.total"}, 10]}, reason: "..."}`
 * denies when the expression is truthy; `require:` denies when it is falsy. Only json-logic-js's
 * `apply` is used, on expressions checked at load time (allowed operators, literal data paths).
 */
export const conditionRule = defineRule<Spec>({
  key: 'condition',
  description:
    'A json-logic expression over the payload and derived facts: deny when `deny` is true, or when `require` is false.',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['reason'],
    properties: {
      deny: expression,
      require: expression,
      reason: { type: 'string', minLength: 1, description: 'What the message says when the condition denies.' },
      timeZone: {
        type: 'string',
        minLength: 1,
        syntax: 'timeZone',
        description: 'IANA time zone of time.weekday, time.hour... (default UTC).',
      },
    },
  },
  compile(spec) {
    const zone = checkZone(spec.timeZone ?? 'UTC');
    if ((spec.deny === undefined) === (spec.require === undefined)) {
      throw new RuleSpecError('give exactly one of deny (denies when true) or require (denies when false)');
    }
    const isDeny = spec.deny !== undefined;
    const expr = (isDeny ? spec.deny : spec.require) as Expression;
    const at = isDeny ? 'deny' : 'require';
    if (expr === null) throw new RuleSpecError(`${at} has no expression`, [at]);
    checkExpression(expr, [at]);
    const roots = dataRoots(expr);
    const unknown = roots === 'all' ? [] : [...roots].filter((r) => !DATA_ROOTS.includes(r));
    if (unknown.length > 0) {
      throw new RuleSpecError(`unknown data "${unknown[0]}"; a path starts with one of ${DATA_ROOTS.join(', ')}`, [at]);
    }
    const needs = dataNeeds(zone, roots);
    // Simple expressions run as closures; the rest through json-logic-js (the same answers either way).
    const compiled = compileSimple(expr);
    const evaluate = compiled ?? ((data: unknown) => jsonLogic.apply(expr, data));
    // `environments.names` holds the Steadybit names (Platform API): a name that cannot be known leaves the answer unknown.
    const readsEnvironments = roots === 'all' || roots.has('environments');
    return {
      ...(readsEnvironments ? { needs: [ENVIRONMENT_NAMES] } : {}),
      check: findings(({ ctx, steps }) => {
        const unnamed = readsEnvironments ? ctx.environments.find((e) => e.unknownName !== undefined) : undefined;
        if (unnamed)
          return [
            {
              reason: `cannot decide: the condition reads environments, and ${unnamed.unknownName}; it guards: ${spec.reason}`,
              status: 'undecidable',
            },
          ];
        let verdict: boolean;
        try {
          verdict = jsonLogic.truthy(evaluate(conditionData(ctx, steps, needs)));
        } catch (err) {
          const why = err instanceof Error ? err.message : String(err);
          return [
            {
              reason: `cannot decide: the condition failed while evaluating (${why}); it guards: ${spec.reason}`,
              status: 'undecidable',
            },
          ];
        }
        return verdict === isDeny ? [{ reason: spec.reason }] : [];
      }),
    };
  },
});
