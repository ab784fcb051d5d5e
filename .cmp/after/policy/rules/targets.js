"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.targetsRule = void 0;
const glob_matcher_1 = require("../core/glob-matcher");
const rule_kind_1 = require("../core/rule-kind");
const checked_1 = require("../core/checked");
const step_text_1 = require("../engine/step-text");
const targeted_step_1 = require("../core/targeted-step");
const count = (description) => ({ type: 'integer', minimum: 0, description });
const capsSchema = {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: {
        maxPerStep: count('Most targets one step may expect (totalTargetCount).'),
        maxTotal: count('Most targets all steps in scope may expect together.'),
    },
};
function checkCaps(caps, where) {
    if (caps.maxPerStep !== undefined && caps.maxTotal !== undefined && caps.maxPerStep > caps.maxTotal) {
        throw new rule_kind_1.RuleSpecError(`maxPerStep ${caps.maxPerStep} is larger than maxTotal ${caps.maxTotal}; a single step could never use it`, [...where, 'maxPerStep']);
    }
}
const from = (n) => n.from === 'totalTargetCount'
    ? `totalTargetCount ${n.count}`
    : `${n.count} listed in targetExecutions; totalTargetCount not sent`;
const targets = (n) => `${n} target${n === 1 ? '' : 's'}`;
const listSteps = (cs) => cs.map((c) => `${c.ref.label}: ${c.n.count}`).join(', ');
/** Per-step and total caps for one group of counted steps (all of them, or one target type: `ofType`). */
function capViolations(caps, counted, ofType = '') {
    const out = [];
    if (caps.maxPerStep !== undefined) {
        for (const c of counted.filter((c) => c.n.count > caps.maxPerStep)) {
            out.push({
                reason: `${(0, step_text_1.stepName)(c.ref)} expects ${targets(c.n.count)}${ofType} (${from(c.n)}), more than the ${caps.maxPerStep} allowed per step`,
                step: c.ref,
                value: String(c.n.count),
            });
        }
    }
    const total = counted.reduce((sum, c) => sum + c.n.count, 0);
    if (caps.maxTotal !== undefined && total > caps.maxTotal) {
        out.push({
            reason: `the run's steps expect ${targets(total)}${ofType} in total (${listSteps(counted)}), more than the ${caps.maxTotal} allowed`,
            value: String(total),
        });
    }
    return out;
}
/** The perType caps; a step whose target type is unknown cannot be judged against them. */
function typeViolations(perType, counted) {
    if (perType.length === 0)
        return [];
    const out = [];
    const typed = counted.map((c) => ({ ...c, type: (0, targeted_step_1.targetTypeOf)(c.ref.step) }));
    const patterns = perType.map((t) => `"${t.pattern}"`).join(', ');
    for (const c of typed.filter((c) => c.type === undefined)) {
        out.push({
            reason: `cannot decide: ${(0, step_text_1.stepName)(c.ref)} names no target type (radius.targetType), so the caps for ${patterns} cannot be applied`,
            step: c.ref,
            status: 'undecidable',
        });
    }
    for (const t of perType) {
        out.push(...capViolations(t.caps, typed.filter((c) => c.type !== undefined && t.matches(c.type)), ` of a type matching "${t.pattern}"`));
    }
    return out;
}
/**
 * `- targets: {maxPerStep: 10, maxTotal: 50, perType: {"*container*": {maxPerStep: 5}}, maxPercentage: 50,
 * requireMaximum: true, denyEmpty: true}`. Counts are `totalTargetCount`, else the number of
 * `targetExecutions`; a step with neither cannot be decided.
 */
exports.targetsRule = (0, rule_kind_1.defineRule)({
    key: 'targets',
    description: 'Cap the targets per step, per run and per target type; cap radius.percentage; require radius.maximum; deny steps expecting no targets.',
    schema: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: {
            ...capsSchema.properties,
            perType: {
                type: 'object',
                minProperties: 1,
                propertyNames: { syntax: 'glob' },
                additionalProperties: capsSchema,
                description: 'Target type glob (e.g. "com.steadybit.extension_container.*") -> caps for steps on that type.',
            },
            maxPercentage: {
                type: 'number',
                exclusiveMinimum: 0,
                maximum: 100,
                description: 'Most radius.percentage a step may use; a step without percentage or maximum counts as 100%.',
            },
            requireMaximum: {
                type: 'boolean',
                description: 'Deny steps that set no radius.maximum (fixed number of targets).',
            },
            denyEmpty: { type: 'boolean', description: 'Deny steps that expect no targets (count 0).' },
        },
    },
    compile(spec) {
        checkCaps(spec, []);
        for (const [type, caps] of Object.entries(spec.perType ?? {}))
            checkCaps(caps, ['perType', type]);
        const perType = Object.entries(spec.perType ?? {}).map(([pattern, caps]) => ({
            pattern,
            caps,
            matches: (0, glob_matcher_1.compileGlobs)([pattern]),
        }));
        const needsCount = spec.maxPerStep !== undefined || spec.maxTotal !== undefined || perType.length > 0 || spec.denyEmpty === true;
        if (!needsCount && spec.maxPercentage === undefined && spec.requireMaximum !== true) {
            throw new rule_kind_1.RuleSpecError('the rule checks nothing: set a cap, maxPercentage, requireMaximum: true or denyEmpty: true');
        }
        function radiusViolations(ref) {
            const out = [];
            const radius = ref.step.radius;
            if (spec.requireMaximum && radius?.maximum === undefined) {
                out.push({
                    reason: `${(0, step_text_1.stepName)(ref)} sets no radius.maximum; this policy requires a fixed maximum number of targets`,
                    step: ref,
                });
            }
            // A maximum caps the count, not the share: with a percentage too, the percentage is still judged.
            if (spec.maxPercentage !== undefined && (radius?.maximum === undefined || radius.percentage !== undefined)) {
                const pct = radius?.percentage ?? 100;
                const said = radius?.percentage === undefined
                    ? 'sets neither radius.percentage nor radius.maximum, so it affects 100% of the matching targets'
                    : `affects ${pct}% of the matching targets (radius.percentage)`;
                if (pct > spec.maxPercentage)
                    out.push({
                        reason: `${(0, step_text_1.stepName)(ref)} ${said}; at most ${spec.maxPercentage}% is allowed`,
                        step: ref,
                        value: `${pct}%`,
                    });
            }
            return out;
        }
        return {
            check: (0, checked_1.findings)(({ steps }) => {
                const targeted = steps.filter((ref) => (0, targeted_step_1.isTargeted)(ref.step));
                const out = targeted.flatMap(radiusViolations);
                if (!needsCount)
                    return out;
                const counted = [];
                for (const ref of targeted) {
                    const n = (0, targeted_step_1.targetCount)(ref.step);
                    if (n)
                        counted.push({ ref, n });
                    else
                        out.push({
                            reason: `cannot decide: ${(0, step_text_1.stepName)(ref)} sends neither totalTargetCount nor targetExecutions, so its number of targets is unknown`,
                            step: ref,
                            status: 'undecidable',
                        });
                }
                if (spec.denyEmpty) {
                    for (const c of counted.filter((c) => c.n.count === 0)) {
                        out.push({
                            reason: `${(0, step_text_1.stepName)(c.ref)} expects no targets (${from(c.n)}); this policy denies steps that would act on nothing`,
                            step: c.ref,
                            value: '0',
                        });
                    }
                }
                out.push(...capViolations(spec, counted));
                out.push(...typeViolations(perType, counted));
                return out;
            }),
        };
    },
});
//# sourceMappingURL=targets.js.map