"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.targetAttributesRule = void 0;
const missing_data_1 = require("../engine/missing-data");
const rule_kind_1 = require("../core/rule-kind");
const checked_1 = require("../core/checked");
const step_text_1 = require("../engine/step-text");
const targeted_step_1 = require("../core/targeted-step");
const valuesByKey = (description) => ({
    type: 'object',
    minProperties: 1,
    propertyNames: { minLength: 1, syntax: 'trimmed' },
    additionalProperties: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', syntax: 'trimmed' } },
    description,
});
const targetName = (t, i) => (t.name ? `target ${t.name}` : `targetExecutions[${i}]`);
/**
 * `- targetAttributes: {forbid: {k8s.namespace: [kube-system]}, allowOnly: {aws.account: ["123456789012"]}, whenMissing: deny}`
 * over `targetExecutions[].attributes` of each targeted step. Values compare exactly; a key may
 * appear several times on one target and every value counts.
 */
exports.targetAttributesRule = (0, rule_kind_1.defineRule)({
    key: 'targetAttributes',
    description: 'Deny steps whose expected targets carry forbidden attribute values, or values outside the allowed ones. Missing attributes deny unless whenMissing: allow.',
    schema: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: {
            forbid: valuesByKey('Attribute key -> values no target may have, e.g. {k8s.namespace: [kube-system]}.'),
            allowOnly: valuesByKey('Attribute key -> the only values a target may have, e.g. {aws.account: ["123456789012"]}.'),
            whenMissing: {
                type: 'string',
                enum: ['deny', 'allow'],
                default: 'deny',
                description: "What a target without the attribute (or a step without targetExecutions) means. Preflight requests only carry the attributes listed in the webhook's targetAttributeIncludes.",
            },
        },
    },
    compile(spec) {
        const forbid = spec.forbid ?? {};
        const allowOnly = spec.allowOnly ?? {};
        if (Object.keys(forbid).length === 0 && Object.keys(allowOnly).length === 0) {
            throw new rule_kind_1.RuleSpecError('the rule checks nothing: set forbid or allowOnly');
        }
        for (const [k, values] of Object.entries(forbid)) {
            const both = values.find((v) => Object.hasOwn(allowOnly, k) && allowOnly[k].includes(v));
            if (both !== undefined)
                throw new rule_kind_1.RuleSpecError(`${k}=${both} is both forbidden and allowed`, ['allowOnly', k]);
        }
        const forbidden = new Map(Object.entries(forbid).map(([k, vs]) => [k, new Set(vs)]));
        const allowed = new Map(Object.entries(allowOnly).map(([k, vs]) => [k, new Set(vs)]));
        const keys = [...new Set([...forbidden.keys(), ...allowed.keys()])];
        const denyMissing = spec.whenMissing !== 'allow';
        function judgeTarget(ref, t, i) {
            const who = () => `${targetName(t, i)} of ${(0, step_text_1.stepName)(ref)}`;
            const out = [];
            const missing = [];
            for (const k of keys) {
                const values = (t.attributes ?? []).filter((a) => a.key === k).map((a) => a.value);
                if (values.length === 0)
                    missing.push(k);
                for (const v of values) {
                    const only = allowed.get(k);
                    if (forbidden.get(k)?.has(v))
                        out.push({
                            reason: `${who()} has ${k}=${v}, which is forbidden`,
                            step: ref,
                            target: t.name,
                            value: `${k}=${v}`,
                        });
                    else if (only && !only.has(v)) {
                        out.push({
                            reason: `${who()} has ${k}=${v}, which is not one of the allowed values (${[...only].join(', ')})`,
                            step: ref,
                            target: t.name,
                            value: `${k}=${v}`,
                        });
                    }
                }
            }
            if (missing.length > 0 && denyMissing) {
                const what = t.attributes === undefined
                    ? 'carries no attributes'
                    : missing.length === 1
                        ? `has no ${missing[0]} attribute`
                        : `has none of the attributes ${missing.join(', ')}`;
                out.push({
                    reason: `cannot decide: ${who()} ${what}; ${(0, missing_data_1.attributeHint)(missing)}`,
                    step: ref,
                    target: t.name,
                    status: 'undecidable',
                });
            }
            return out;
        }
        function judgeStep(ref) {
            const targets = ref.step.targetExecutions ?? [];
            const expected = ref.step.totalTargetCount;
            if (targets.length === 0 && expected !== 0) {
                if (!denyMissing)
                    return [];
                const why = ref.step.targetExecutions === undefined
                    ? 'sends no targetExecutions'
                    : `lists no targets although totalTargetCount is ${expected ?? 'not sent'}`;
                return [
                    {
                        reason: `cannot decide: ${(0, step_text_1.stepName)(ref)} ${why}, so the attributes ${keys.join(', ')} of its targets cannot be checked`,
                        step: ref,
                        status: 'undecidable',
                    },
                ];
            }
            const found = targets.flatMap((t, i) => judgeTarget(ref, t, i));
            if (denyMissing && typeof expected === 'number' && expected > targets.length) {
                found.push({
                    reason: `cannot decide: ${(0, step_text_1.stepName)(ref)} lists ${targets.length} of its ${expected} targets (totalTargetCount); the other ${expected - targets.length} cannot be checked`,
                    step: ref,
                    status: 'undecidable',
                });
            }
            const blind = found.slice(missing_data_1.MAX_PER_STEP).every((v) => v.status === 'undecidable');
            return (0, missing_data_1.capped)(found, (n) => ({
                reason: `${blind ? 'cannot decide: ' : ''}${(0, step_text_1.stepName)(ref)}: ${n} more target attribute findings not listed`,
                step: ref,
                status: blind ? 'undecidable' : undefined,
            }));
        }
        return {
            check: (0, checked_1.findings)(({ steps }) => {
                return steps.filter((ref) => (0, targeted_step_1.isTargeted)(ref.step)).flatMap(judgeStep);
            }),
        };
    },
});
//# sourceMappingURL=target-attributes.js.map