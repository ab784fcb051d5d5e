"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.perGroupRule = void 0;
const missing_data_1 = require("../engine/missing-data");
const rule_kind_1 = require("../core/rule-kind");
const checked_1 = require("../core/checked");
const step_text_1 = require("../engine/step-text");
const targeted_step_1 = require("../core/targeted-step");
const group_tally_1 = require("./group-tally");
const attributeKey = (description) => ({ type: 'string', minLength: 1, syntax: 'trimmed', description });
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const percent = (x) => `${Math.round(x * 10) / 10}%`;
/** Whether a step lists every target it expects; when not, the violation saying so. */
function incomplete(ref, by) {
    const listed = ref.step.targetExecutions?.length ?? 0;
    const expected = ref.step.totalTargetCount;
    if (listed === 0 && expected !== 0) {
        const why = ref.step.targetExecutions === undefined
            ? 'sends no targetExecutions'
            : `lists no targets although totalTargetCount is ${expected ?? 'not sent'}`;
        return {
            reason: `cannot decide: ${(0, step_text_1.stepName)(ref)} ${why}, so the ${by} of its targets is unknown`,
            step: ref,
            status: 'undecidable',
        };
    }
    if (typeof expected === 'number' && expected > listed) {
        return {
            reason: `cannot decide: ${(0, step_text_1.stepName)(ref)} lists ${listed} of its ${expected} targets (totalTargetCount); the ${by} of the other ${expected - listed} is unknown`,
            step: ref,
            status: 'undecidable',
        };
    }
    return undefined;
}
/**
 * `- perGroup: {by: k8s.deployment, maxShare: 34, size: {attribute: k8s.specification.replicas}, maxGroups: 1}`:
 * caps, per value of a target attribute, how many targets (or what share of the group) a step or the
 * whole run acts on, and how many groups it touches. Reads only the payload's targetExecutions.
 */
exports.perGroupRule = (0, rule_kind_1.defineRule)({
    key: 'perGroup',
    description: 'Cap, per value of a target attribute (deployment, namespace, node, zone, account...), the targets or the share of the group a step or the run acts on, and how many groups it touches.',
    schema: {
        type: 'object',
        additionalProperties: false,
        required: ['by'],
        properties: {
            by: attributeKey('The target attribute whose values are the groups, e.g. k8s.deployment, k8s.node.name, aws.zone.'),
            per: {
                type: 'string',
                enum: ['step', 'run'],
                default: 'step',
                description: 'step (default): each step is judged alone; run: all targeted steps together (a target reached twice counts once).',
            },
            member: attributeKey('Count distinct values of this attribute instead of targets, e.g. k8s.pod.name when targets are containers and the size is in pods.'),
            maxTargets: { type: 'integer', minimum: 1, description: 'Most targets (members) of one group.' },
            maxShare: {
                type: 'number',
                exclusiveMinimum: 0,
                maximum: 100,
                description: "Most percent of a group's size; needs size.",
            },
            size: {
                type: 'object',
                additionalProperties: false,
                minProperties: 1,
                description: "Where a group's size comes from, for maxShare.",
                properties: {
                    attribute: attributeKey("A target attribute carrying the size of the target's group, e.g. k8s.specification.replicas. Disagreeing values: the smallest counts."),
                    default: {
                        type: 'integer',
                        minimum: 1,
                        description: 'The size of a group none of whose targets carries size.attribute (the documented fallback).',
                    },
                    whenUnknown: {
                        type: 'string',
                        enum: ['deny', 'warn'],
                        default: 'deny',
                        description: 'A group without a known size: deny (cannot decide, default) or warn (said, not held against the run).',
                    },
                },
            },
            maxGroups: {
                type: 'integer',
                minimum: 1,
                description: 'Most distinct groups a step (per: step) or the run (per: run) touches.',
            },
            whenMissing: {
                type: 'string',
                enum: ['deny', 'allow'],
                default: 'deny',
                description: 'A target without the by (or member) attribute, or a step not listing all its targets: deny (cannot decide, default) or allow (left out of the count).',
            },
        },
    },
    compile(spec) {
        if (spec.maxTargets === undefined && spec.maxShare === undefined && spec.maxGroups === undefined) {
            throw new rule_kind_1.RuleSpecError('the rule checks nothing: set maxTargets, maxShare or maxGroups');
        }
        if (spec.maxShare !== undefined && spec.size === undefined) {
            throw new rule_kind_1.RuleSpecError('maxShare needs the group sizes: set size.attribute (e.g. k8s.specification.replicas) or size.default', ['maxShare']);
        }
        if (spec.size !== undefined && spec.maxShare === undefined)
            throw new rule_kind_1.RuleSpecError('size is only read by maxShare: set maxShare or remove size', ['size']);
        if (spec.size && spec.size.attribute === undefined && spec.size.default === undefined) {
            throw new rule_kind_1.RuleSpecError('size needs attribute or default', ['size']);
        }
        const keys = { by: spec.by, member: spec.member, size: spec.size?.attribute };
        const denyMissing = spec.whenMissing !== 'allow';
        const unit = spec.member ?? 'target';
        const label = (value) => `${spec.by}=${value}`;
        function sizeOf(g) {
            if (g.badSize) {
                const { where, value } = g.badSize;
                const more = g.badSizes > 1 ? ` (so ${g.badSizes === 2 ? 'does' : 'do'} ${plural(g.badSizes - 1, 'other target')})` : '';
                return {
                    invalid: true,
                    said: `${where} sends ${spec.size?.attribute}=${JSON.stringify(value)}, not a whole number of at least 1${more}`,
                };
            }
            if (g.sized > 0) {
                const spread = g.smallest === g.largest ? '' : `, the smallest of ${g.smallest} to ${g.largest} sent`;
                const some = g.sized < g.targets ? `, sent by ${g.sized} of its ${plural(g.targets, 'target')}` : '';
                return { size: g.smallest, said: `size ${g.smallest} from ${spec.size?.attribute}${spread}${some}` };
            }
            if (spec.size?.default !== undefined) {
                const none = spec.size.attribute ? `none of its targets carries ${spec.size.attribute}, so ` : '';
                return { size: spec.size.default, said: `${none}size ${spec.size.default} from size.default` };
            }
            return { said: `none of its targets carries ${spec.size?.attribute}` };
        }
        function shareViolation(scope, value, g, max) {
            const n = g.members.size;
            const { size, said, invalid } = sizeOf(g);
            if (size === undefined) {
                const warn = spec.size?.whenUnknown === 'warn';
                const hint = invalid
                    ? `correct ${spec.size?.attribute} where the target gets it (size.default is not used for a group sending an invalid size)`
                    : `${(0, missing_data_1.attributeHint)([spec.size?.attribute ?? spec.by]).replace(', or set whenMissing: allow', '')}, or set size.default`;
                const state = invalid ? 'invalid' : 'unknown';
                const reason = `${warn ? '' : 'cannot decide: '}${scope.name} acts on ${plural(n, unit)} of ${label(value)}, whose size is ${state} (${said}); ${hint}`;
                return warn
                    ? { reason, step: scope.step, value: label(value), status: 'advisory' }
                    : { reason, step: scope.step, value: label(value), status: 'undecidable' };
            }
            if (n * 100 <= max * size)
                return undefined;
            const members = spec.member ? `values of ${spec.member}` : size === 1 ? 'target' : 'targets';
            return {
                reason: `${scope.name} acts on ${n} of the ${size} ${members} in ${label(value)} (${percent((n * 100) / size)}; ${said}), more than the ${max}% allowed`,
                step: scope.step,
                value: label(value),
            };
        }
        function judge(scope) {
            const out = [...scope.blind];
            if (scope.tally.unplaced.length > 0 && denyMissing) {
                const missing = spec.member ? `${spec.by} or ${spec.member}` : spec.by;
                const some = scope.tally.unplaced.slice(0, 3).join(', ') +
                    (scope.tally.unplaced.length > 3 ? `, and ${scope.tally.unplaced.length - 3} more` : '');
                const n = scope.tally.unplaced.length;
                out.push({
                    reason: `cannot decide: ${plural(n, 'target')} of ${scope.name} ${n === 1 ? 'carries' : 'carry'} no ${missing} (${some}); ${(0, missing_data_1.attributeHint)(spec.member ? [spec.by, spec.member] : [spec.by])}`,
                    step: scope.step,
                    status: 'undecidable',
                });
            }
            const found = [];
            for (const [value, g] of scope.tally.groups) {
                if (spec.maxTargets !== undefined && g.members.size > spec.maxTargets) {
                    found.push({
                        reason: `${scope.name} acts on ${plural(g.members.size, unit)} of ${label(value)}, more than the ${spec.maxTargets} allowed per ${spec.by}`,
                        step: scope.step,
                        value: label(value),
                    });
                }
                const share = spec.maxShare === undefined ? undefined : shareViolation(scope, value, g, spec.maxShare);
                if (share)
                    found.push(share);
            }
            out.push(...(0, missing_data_1.capped)(found, (n) => ({
                reason: `${scope.name}: ${n} more groups of ${spec.by} over their limits not listed`,
                step: scope.step,
                status: found.slice(missing_data_1.MAX_PER_STEP).every((v) => v.status === 'undecidable') ? 'undecidable' : undefined,
            })));
            const groups = scope.tally.groups.size;
            if (spec.maxGroups !== undefined && groups > spec.maxGroups) {
                const names = [...scope.tally.groups.keys()];
                const list = names.slice(0, 5).join(', ') + (names.length > 5 ? `, and ${names.length - 5} more` : '');
                out.push({
                    reason: `${scope.name} touches ${groups} values of ${spec.by} (${list}), more than the ${spec.maxGroups} allowed`,
                    value: String(groups),
                    step: scope.step,
                });
            }
            return out;
        }
        function stepScope(ref, tally) {
            const gap = incomplete(ref, spec.by);
            if (gap && denyMissing)
                return [gap];
            (0, group_tally_1.tallyTargets)(tally, ref, ref.step.targetExecutions ?? [], keys);
            return [];
        }
        return {
            check: (0, checked_1.findings)(({ steps }) => {
                const targeted = steps.filter((ref) => (0, targeted_step_1.isTargeted)(ref.step));
                if (spec.per === 'run') {
                    const tally = (0, group_tally_1.emptyTally)();
                    const blind = targeted.flatMap((ref) => stepScope(ref, tally));
                    return judge({ name: 'the run', tally, blind });
                }
                return targeted.flatMap((ref) => {
                    const tally = (0, group_tally_1.emptyTally)();
                    const blind = stepScope(ref, tally);
                    return judge({ name: (0, step_text_1.stepName)(ref), step: ref, tally, blind });
                });
            }),
        };
    },
});
//# sourceMappingURL=per-group.js.map