"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.actionsRule = void 0;
const glob_matcher_1 = require("../core/glob-matcher");
const rule_kind_1 = require("../core/rule-kind");
const checked_1 = require("../core/checked");
const scope_1 = require("../engine/scope");
const step_text_1 = require("../engine/step-text");
const glob_list_schema_1 = require("./glob-list-schema");
const kinds = (description) => ({
    type: 'array',
    minItems: 1,
    uniqueItems: true,
    items: { type: 'string', enum: [...scope_1.ACTION_KINDS] },
    description,
});
function overlap(a, b) {
    const lower = new Set((b ?? []).map((x) => x.toLowerCase()));
    return (a ?? []).find((x) => lower.has(x.toLowerCase()));
}
/**
 * `- actions: {blocked: ["*shutdown*"]}`, `{allowed: ["com.steadybit.extension_http.*"]}`,
 * `{allowedKinds: [CHECK]}`: judged per action step in the policy's scope.
 */
exports.actionsRule = (0, rule_kind_1.defineRule)({
    key: 'actions',
    description: 'Deny steps whose action id or kind is blocked, or not among the allowed ones. Ids are case-insensitive globs.',
    schema: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: {
            blocked: (0, glob_list_schema_1.globListSchema)('Action id globs no step may run, e.g. "*shutdown*".'),
            allowed: (0, glob_list_schema_1.globListSchema)('Action id globs; a step running any other action is denied.'),
            blockedKinds: kinds('Action kinds no step may be, e.g. ATTACK.'),
            allowedKinds: kinds('Action kinds; a step of any other kind is denied, e.g. [CHECK].'),
        },
    },
    compile(spec) {
        const both = overlap(spec.blocked, spec.allowed);
        if (both)
            throw new rule_kind_1.RuleSpecError(`action "${both}" is both blocked and allowed`, ['allowed']);
        const bothKinds = overlap(spec.blockedKinds, spec.allowedKinds);
        if (bothKinds)
            throw new rule_kind_1.RuleSpecError(`action kind ${bothKinds} is both blocked and allowed`, ['allowedKinds']);
        const blocked = spec.blocked?.map((p) => ({ p, m: (0, glob_matcher_1.compileGlobs)([p]) }));
        const allowed = spec.allowed && (0, glob_matcher_1.compileGlobs)(spec.allowed);
        const blockedKinds = spec.blockedKinds && new Set(spec.blockedKinds);
        const allowedKinds = spec.allowedKinds && new Set(spec.allowedKinds);
        function checkId(ref) {
            if (!blocked && !allowed)
                return undefined;
            const id = ref.step.actionId;
            if (id === undefined)
                return {
                    reason: `cannot decide: ${(0, step_text_1.stepName)(ref)} has no actionId, so it cannot be checked against the blocked/allowed actions`,
                    step: ref,
                    status: 'undecidable',
                };
            const hit = blocked?.find((b) => b.m(id));
            if (hit)
                return {
                    reason: `${(0, step_text_1.stepName)(ref)} runs action ${id}, which is blocked (matches "${hit.p}")`,
                    step: ref,
                    value: id,
                };
            if (allowed && !allowed(id))
                return {
                    reason: `${(0, step_text_1.stepName)(ref)} runs action ${id}, which is not one of the allowed actions (${spec.allowed?.join(', ')})`,
                    step: ref,
                    value: id,
                };
            return undefined;
        }
        function checkKind(ref) {
            if (!blockedKinds && !allowedKinds)
                return undefined;
            const kind = ref.step.actionKind?.toUpperCase();
            if (kind === undefined)
                return {
                    reason: `cannot decide: ${(0, step_text_1.stepName)(ref)} (${(0, step_text_1.actionOf)(ref)}) has no actionKind, so it cannot be checked against the action kinds`,
                    step: ref,
                    status: 'undecidable',
                };
            if (blockedKinds?.has(kind))
                return {
                    reason: `${(0, step_text_1.stepName)(ref)} runs ${(0, step_text_1.actionOf)(ref)}, an action of kind ${kind}, which is blocked`,
                    step: ref,
                    value: kind,
                };
            if (allowedKinds && !allowedKinds.has(kind)) {
                return {
                    reason: `${(0, step_text_1.stepName)(ref)} runs ${(0, step_text_1.actionOf)(ref)}, an action of kind ${kind}; only ${[...allowedKinds].join(', ')} actions are allowed`,
                    step: ref,
                    value: kind,
                };
            }
            return undefined;
        }
        return {
            check: (0, checked_1.findings)(({ steps }) => {
                return steps.flatMap((ref) => [checkId(ref), checkKind(ref)].filter((v) => v !== undefined));
            }),
        };
    },
});
//# sourceMappingURL=actions.js.map