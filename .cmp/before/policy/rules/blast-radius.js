"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.blastRadiusRule = void 0;
const describe_1 = require("../predicate/describe");
const judge_path_1 = require("../predicate/judge-path");
const predicate_paths_1 = require("../predicate/predicate-paths");
const rule_kind_1 = require("../core/rule-kind");
const checked_1 = require("../core/checked");
const step_text_1 = require("../engine/step-text");
const targeted_step_1 = require("../core/targeted-step");
const key = { type: 'string', minLength: 1, syntax: 'trimmed' };
/** The first way through the tree that gives `verdict`, with its judgement. */
function firstWith(paths, verdict, judge) {
    for (const path of paths) {
        const j = judge(path);
        if (j.verdict === verdict)
            return { path, j };
    }
    return undefined;
}
/** How a message points into the predicate: the whole predicate, or one OR branch of it. */
function where(path, paths, hasPredicate) {
    if (!hasPredicate)
        return 'it has no radius.predicate';
    return paths.length === 1
        ? `its predicate is ${(0, describe_1.describePath)(path)}`
        : `the OR branch ${(0, describe_1.describePath)(path)} of its predicate`;
}
/**
 * `- blastRadius: {requireKeys: [k8s.cluster-name, k8s.namespace], forbidValues: {k8s.namespace: [kube-system]},
 * denyUnscoped: true, onUnknownShape: deny}` over each targeted step's `radius.predicate`.
 */
exports.blastRadiusRule = (0, rule_kind_1.defineRule)({
    key: 'blastRadius',
    description: 'Judge radius.predicate: require every way through it to pin given attribute keys, forbid selecting given values, deny predicates that select every target.',
    schema: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: {
            requireKeys: {
                type: 'array',
                minItems: 1,
                uniqueItems: true,
                items: key,
                description: 'Attribute keys every way through the predicate must pin with EQUALS / EQUALS_IGNORE_CASE (e.g. k8s.cluster-name).',
            },
            forbidValues: {
                type: 'object',
                minProperties: 1,
                propertyNames: key,
                additionalProperties: { type: 'array', minItems: 1, uniqueItems: true, items: key },
                description: 'Attribute key -> values (exact) the predicate must not be able to select, e.g. {k8s.namespace: [kube-system]}.',
            },
            denyUnscoped: {
                type: 'boolean',
                description: 'Deny targeted steps whose predicate is missing or empty (selects every target of the type).',
            },
            onUnknownShape: {
                type: 'string',
                enum: ['deny', 'ignore'],
                default: 'deny',
                description: 'deny (default): a predicate part the engine cannot judge (query language, unknown operator) denies as "cannot decide"; ignore: the check it blocks is skipped.',
            },
        },
    },
    compile(spec) {
        const forbid = Object.entries(spec.forbidValues ?? {});
        if (!spec.requireKeys && forbid.length === 0 && spec.denyUnscoped !== true) {
            throw new rule_kind_1.RuleSpecError('the rule checks nothing: set requireKeys, forbidValues or denyUnscoped: true');
        }
        if (forbid.some(([k]) => k.trim() === ''))
            throw new rule_kind_1.RuleSpecError('forbidValues has an empty attribute key', ['forbidValues']);
        function undecided(ref, what, j) {
            if (spec.onUnknownShape === 'ignore')
                return [];
            const part = j.because ? (0, describe_1.describeLiteral)(j.because) : 'a part of it';
            return [
                {
                    reason: `cannot decide: ${(0, step_text_1.stepName)(ref)}: ${what} depends on ${part} in radius.predicate, which the engine cannot judge`,
                    step: ref,
                    status: 'undecidable',
                },
            ];
        }
        function judgeStep(ref, memo) {
            const raw = ref.step.radius?.predicate;
            const hasPredicate = raw !== undefined && raw !== null;
            const paths = hasPredicate ? (0, predicate_paths_1.predicatePaths)(raw, memo) : [[]];
            const type = ref.step.radius?.targetType ?? 'any type';
            const out = [];
            if (spec.denyUnscoped) {
                const open = firstWith(paths, 'no', judge_path_1.restricts);
                const blind = open ? undefined : firstWith(paths, 'unknown', judge_path_1.restricts);
                if (open)
                    out.push({
                        reason: `${(0, step_text_1.stepName)(ref)} is unscoped: ${where(open.path, paths, hasPredicate)}, so it selects every target of ${type}`,
                        step: ref,
                    });
                else if (blind)
                    out.push(...undecided(ref, 'whether it is scoped', blind.j));
            }
            for (const k of spec.requireKeys ?? []) {
                const miss = firstWith(paths, 'no', (p) => (0, judge_path_1.pinsKey)(p, k));
                const blind = miss ? undefined : firstWith(paths, 'unknown', (p) => (0, judge_path_1.pinsKey)(p, k));
                if (miss)
                    out.push({
                        reason: `${(0, step_text_1.stepName)(ref)} is not scoped by ${k}: ${where(miss.path, paths, hasPredicate)}, which does not pin ${k} with EQUALS`,
                        step: ref,
                        value: k,
                    });
                else if (blind)
                    out.push(...undecided(ref, `whether it is scoped by ${k}`, blind.j));
            }
            for (const [k, values] of forbid) {
                for (const v of values) {
                    const hit = firstWith(paths, 'yes', (p) => (0, judge_path_1.admitsValue)(p, k, v));
                    const blind = hit ? undefined : firstWith(paths, 'unknown', (p) => (0, judge_path_1.admitsValue)(p, k, v));
                    if (hit) {
                        const via = hit.j.because ? (0, describe_1.describeLiteral)(hit.j.because) : k;
                        out.push({
                            reason: `${(0, step_text_1.stepName)(ref)} can select targets with ${k}=${v}, which is forbidden: ${where(hit.path, paths, hasPredicate)} (${via} lets ${v} through)`,
                            step: ref,
                            value: `${k}=${v}`,
                        });
                    }
                    else if (blind)
                        out.push(...undecided(ref, `whether it can select ${k}=${v}`, blind.j));
                }
            }
            return out;
        }
        return {
            check: (0, checked_1.findings)(({ ctx, steps }) => {
                return steps.filter((ref) => (0, targeted_step_1.isTargeted)(ref.step)).flatMap((ref) => judgeStep(ref, ctx.memo));
            }),
        };
    },
});
//# sourceMappingURL=blast-radius.js.map