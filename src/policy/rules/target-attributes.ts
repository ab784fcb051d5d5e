import type { Target } from '../../payload/types';
import { attributeHint, capped, MAX_PER_STEP } from '../engine/missing-data';
import { defineRule, RuleSpecError } from '../core/rule-kind';
import { findings } from '../core/checked';
import { stepName } from '../engine/step-text';
import { isTargeted } from '../core/targeted-step';
import type { ActionStepRef, Violation } from '../core/decision';
import type { EvaluationContext } from '../core/evaluation-context';
import { attributeColumn, type AttributeColumn } from '../engine/target-attribute-values';

type ValuesByKey = Record<string, string[]>;
interface Spec {
  forbid?: ValuesByKey;
  allowOnly?: ValuesByKey;
  whenMissing?: 'deny' | 'allow';
}

const valuesByKey = (description: string) => ({
  type: 'object',
  minProperties: 1,
  propertyNames: { minLength: 1, syntax: 'trimmed' },
  additionalProperties: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', syntax: 'trimmed' } },
  description,
});

const targetName = (t: Target, i: number) => (t.name ? `target ${t.name}` : `targetExecutions[${i}]`);
const targetOfStep = (ref: ActionStepRef, t: Target, i: number) => `${targetName(t, i)} of ${stepName(ref)}`;

/**
 * `- targetAttributes: {forbid: {k8s.namespace: [kube-system]}, allowOnly: {aws.account: ["123456789012"]}, whenMissing: deny}`
 * over `targetExecutions[].attributes` of each targeted step. Values compare exactly; a key may
 * appear several times on one target and every value counts.
 */
export const targetAttributesRule = defineRule<Spec>({
  key: 'targetAttributes',
  description:
    'Deny steps whose expected targets carry forbidden attribute values, or values outside the allowed ones. Missing attributes deny unless whenMissing: allow.',
  schema: {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: {
      forbid: valuesByKey('Attribute key -> values no target may have, e.g. {k8s.namespace: [kube-system]}.'),
      allowOnly: valuesByKey(
        'Attribute key -> the only values a target may have, e.g. {aws.account: ["123456789012"]}.',
      ),
      whenMissing: {
        type: 'string',
        enum: ['deny', 'allow'],
        default: 'deny',
        description:
          "What a target without the attribute (or a step without targetExecutions) means. Preflight requests only carry the attributes listed in the webhook's targetAttributeIncludes.",
      },
    },
  },
  compile(spec) {
    const forbid = spec.forbid ?? {};
    const allowOnly = spec.allowOnly ?? {};
    if (Object.keys(forbid).length === 0 && Object.keys(allowOnly).length === 0) {
      throw new RuleSpecError('the rule checks nothing: set forbid or allowOnly');
    }
    for (const [k, values] of Object.entries(forbid)) {
      const both = values.find((v) => Object.hasOwn(allowOnly, k) && allowOnly[k].includes(v));
      if (both !== undefined) throw new RuleSpecError(`${k}=${both} is both forbidden and allowed`, ['allowOnly', k]);
    }
    const forbidden = new Map(Object.entries(forbid).map(([k, vs]) => [k, new Set(vs)]));
    const allowed = new Map(Object.entries(allowOnly).map(([k, vs]) => [k, new Set(vs)]));
    const keys = [...new Set([...forbidden.keys(), ...allowed.keys()])];
    const denyMissing = spec.whenMissing !== 'allow';
    const forbiddenOf = keys.map((k) => forbidden.get(k));
    const allowedOf = keys.map((k) => allowed.get(k));

    /** One target's findings, after those of the targets before it; nothing is built for a target that passes. */
    function judgeTarget(ref: ActionStepRef, t: Target, i: number, columns: AttributeColumn[], out: Violation[]): void {
      let missing: string[] | undefined;
      for (let j = 0; j < keys.length; j++) {
        const k = keys[j];
        const { values, starts } = columns[j];
        if (starts[i] === starts[i + 1]) {
          (missing ??= []).push(k);
          continue;
        }
        for (let p = starts[i]; p < starts[i + 1]; p++) {
          const v = values[p];
          const only = allowedOf[j];
          if (forbiddenOf[j]?.has(v))
            out.push({
              reason: `${targetOfStep(ref, t, i)} has ${k}=${v}, which is forbidden`,
              step: ref,
              target: t.name,
              value: `${k}=${v}`,
            });
          else if (only && !only.has(v)) {
            out.push({
              reason: `${targetOfStep(ref, t, i)} has ${k}=${v}, which is not one of the allowed values (${[...only].join(', ')})`,
              step: ref,
              target: t.name,
              value: `${k}=${v}`,
            });
          }
        }
      }
      if (missing !== undefined && denyMissing) {
        const what =
          t.attributes === undefined
            ? 'carries no attributes'
            : missing.length === 1
              ? `has no ${missing[0]} attribute`
              : `has none of the attributes ${missing.join(', ')}`;
        out.push({
          reason: `cannot decide: ${targetOfStep(ref, t, i)} ${what}; ${attributeHint(missing)}`,
          step: ref,
          target: t.name,
          status: 'undecidable',
        });
      }
    }

    function judgeStep(ref: ActionStepRef, ctx: EvaluationContext): Violation[] {
      const targets = ref.step.targetExecutions ?? [];
      const expected = ref.step.totalTargetCount;
      if (targets.length === 0 && expected !== 0) {
        if (!denyMissing) return [];
        const why =
          ref.step.targetExecutions === undefined
            ? 'sends no targetExecutions'
            : `lists no targets although totalTargetCount is ${expected ?? 'not sent'}`;
        return [
          {
            reason: `cannot decide: ${stepName(ref)} ${why}, so the attributes ${keys.join(', ')} of its targets cannot be checked`,
            step: ref,
            status: 'undecidable',
          },
        ];
      }
      const columns = keys.map((k) => attributeColumn(ctx, ref.step, k));
      const found: Violation[] = [];
      for (let i = 0; i < targets.length; i++) judgeTarget(ref, targets[i], i, columns, found);
      if (denyMissing && typeof expected === 'number' && expected > targets.length) {
        found.push({
          reason: `cannot decide: ${stepName(ref)} lists ${targets.length} of its ${expected} targets (totalTargetCount); the other ${expected - targets.length} cannot be checked`,
          step: ref,
          status: 'undecidable',
        });
      }
      const blind = found.slice(MAX_PER_STEP).every((v) => v.status === 'undecidable');
      return capped(found, (n) => ({
        reason: `${blind ? 'cannot decide: ' : ''}${stepName(ref)}: ${n} more target attribute findings not listed`,
        step: ref,
        status: blind ? 'undecidable' : undefined,
      }));
    }

    return {
      check: findings(({ ctx, steps }) => {
        return steps.filter((ref) => isTargeted(ref.step)).flatMap((ref) => judgeStep(ref, ctx));
      }),
    };
  },
});
