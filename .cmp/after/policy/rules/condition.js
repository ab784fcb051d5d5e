"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.conditionRule = void 0;
const json_logic_js_1 = __importDefault(require("json-logic-js"));
const check_expression_1 = require("../json-logic/check-expression");
const compile_simple_1 = require("../json-logic/compile-simple");
const condition_data_1 = require("../json-logic/condition-data");
const data_roots_1 = require("../json-logic/data-roots");
const environment_facts_1 = require("../facts/environment-facts");
const rule_kind_1 = require("../core/rule-kind");
const checked_1 = require("../core/checked");
const zone_1 = require("../time/zone");
const expression = { description: 'A json-logic expression over the condition data (docs/policies.md, "condition").' };
/**
 * The escape hatch: `- condition: {deny: {">": [{"var": "targets.total"}, 10]}, reason: "..."}`
 * denies when the expression is truthy; `require:` denies when it is falsy. Only json-logic-js's
 * `apply` is used, on expressions checked at load time (allowed operators, literal data paths).
 */
exports.conditionRule = (0, rule_kind_1.defineRule)({
    key: 'condition',
    description: 'A json-logic expression over the payload and derived facts: deny when `deny` is true, or when `require` is false.',
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
        const zone = (0, zone_1.checkZone)(spec.timeZone ?? 'UTC');
        if ((spec.deny === undefined) === (spec.require === undefined)) {
            throw new rule_kind_1.RuleSpecError('give exactly one of deny (denies when true) or require (denies when false)');
        }
        const isDeny = spec.deny !== undefined;
        const expr = (isDeny ? spec.deny : spec.require);
        const at = isDeny ? 'deny' : 'require';
        if (expr === null)
            throw new rule_kind_1.RuleSpecError(`${at} has no expression`, [at]);
        (0, check_expression_1.checkExpression)(expr, [at]);
        const roots = (0, data_roots_1.dataRoots)(expr);
        const unknown = roots === 'all' ? [] : [...roots].filter((r) => !condition_data_1.DATA_ROOTS.includes(r));
        if (unknown.length > 0) {
            throw new rule_kind_1.RuleSpecError(`unknown data "${unknown[0]}"; a path starts with one of ${condition_data_1.DATA_ROOTS.join(', ')}`, [at]);
        }
        const needs = (0, condition_data_1.dataNeeds)(zone, roots);
        // Simple expressions run as closures; the rest through json-logic-js (the same answers either way).
        const compiled = (0, compile_simple_1.compileSimple)(expr);
        const evaluate = compiled ?? ((data) => json_logic_js_1.default.apply(expr, data));
        // `environments.names` holds the Steadybit names (Platform API): a name that cannot be known leaves the answer unknown.
        const readsEnvironments = roots === 'all' || roots.has('environments');
        return {
            ...(readsEnvironments ? { needs: [environment_facts_1.ENVIRONMENT_NAMES] } : {}),
            check: (0, checked_1.findings)(({ ctx, steps }) => {
                const unnamed = readsEnvironments ? ctx.environments.find((e) => e.unknownName !== undefined) : undefined;
                if (unnamed)
                    return [
                        {
                            reason: `cannot decide: the condition reads environments, and ${unnamed.unknownName}; it guards: ${spec.reason}`,
                            status: 'undecidable',
                        },
                    ];
                let verdict;
                try {
                    verdict = json_logic_js_1.default.truthy(evaluate((0, condition_data_1.conditionData)(ctx, steps, needs)));
                }
                catch (err) {
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
//# sourceMappingURL=condition.js.map