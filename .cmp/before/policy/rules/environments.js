"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.environmentsRule = void 0;
const rule_kind_1 = require("../core/rule-kind");
const checked_1 = require("../core/checked");
const environments_1 = require("../engine/environments");
const environment_facts_1 = require("../facts/environment-facts");
/** The listed key the environment matched, e.g. the alias "production" for its UUID. */
function listedAs(env, listed) {
    for (const k of env.keys)
        if (listed.has(k))
            return k;
    return undefined;
}
const named = (env, key) => key === env.value.toLowerCase() ? env.value : `${key} (${env.value})`;
const names = { type: 'array', minItems: 1, items: { type: 'string', minLength: 1, syntax: 'name' } };
/** `- environments: {blocked: [production]}` or `{allowed: [staging, dev]}`; Steadybit names (with the Platform API), ids or aliases. */
exports.environmentsRule = (0, rule_kind_1.defineRule)({
    key: 'environments',
    description: 'Deny runs in blocked environments, or outside the allowed ones (names, ids or alias names).',
    schema: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: { blocked: names, allowed: names },
    },
    compile(spec) {
        const blocked = spec.blocked ? (0, environments_1.environmentSet)(spec.blocked) : undefined;
        const allowed = spec.allowed ? (0, environments_1.environmentSet)(spec.allowed) : undefined;
        if (blocked && allowed) {
            const both = [...blocked].filter((e) => allowed.has(e));
            if (both.length > 0)
                throw new rule_kind_1.RuleSpecError(`environment "${both[0]}" is both blocked and allowed`);
        }
        return {
            needs: [environment_facts_1.ENVIRONMENT_NAMES],
            check: (0, checked_1.findings)(({ ctx }) => {
                if (ctx.environments.length === 0) {
                    return [
                        {
                            reason: 'cannot decide: the payload names no environment (execution.environment is missing)',
                            status: 'undecidable',
                        },
                    ];
                }
                const out = [];
                for (const env of ctx.environments) {
                    const hit = blocked && listedAs(env, blocked);
                    if (hit) {
                        out.push({ reason: `environment ${named(env, hit)} is blocked`, value: env.value });
                    }
                    else if (env.unknownName !== undefined &&
                        (blocked || listedAs(env, allowed) === undefined)) {
                        // Its Steadybit name might be blocked, or the one allowed: the rule cannot decide.
                        const which = blocked ? 'is blocked' : 'is one of the allowed environments';
                        out.push({
                            reason: `cannot decide whether environment ${env.value} ${which}: ${env.unknownName}`,
                            value: env.value,
                            status: 'undecidable',
                        });
                    }
                    else if (allowed && listedAs(env, allowed) === undefined) {
                        out.push({
                            reason: `environment ${env.value} is not one of the allowed environments (${spec.allowed?.join(', ')})`,
                            value: env.value,
                        });
                    }
                }
                return out;
            }),
        };
    },
});
//# sourceMappingURL=environments.js.map