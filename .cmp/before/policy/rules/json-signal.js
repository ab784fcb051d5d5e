"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.jsonSignalRule = void 0;
const json_logic_js_1 = __importDefault(require("json-logic-js"));
const rule_kind_1 = require("../core/rule-kind");
const check_expression_1 = require("../json-logic/check-expression");
const compile_simple_1 = require("../json-logic/compile-simple");
const data_roots_1 = require("../json-logic/data-roots");
const json_check_1 = require("../signals/json-check");
const json_path_text_1 = require("../signals/json-path-text");
const placeholder_text_1 = require("../signals/placeholder-text");
const source_kind_1 = require("../signals/source-kind");
const environment_facts_1 = require("../facts/environment-facts");
const signal_need_1 = require("../facts/signal-need");
const signal_run_values_1 = require("./signal-run-values");
const ROOTS = ['status', 'body'];
/** A json-logic expression over `{status, body}`, checked now: allowed operators, literal paths under status or body. */
function compileLogic(expr, at) {
    if (expr === null || expr === undefined)
        throw new rule_kind_1.RuleSpecError(`${at} has no expression`, [at]);
    (0, check_expression_1.checkExpression)(expr, [at]);
    const roots = (0, data_roots_1.dataRoots)(expr);
    const unknown = roots === 'all' ? [] : [...roots].filter((r) => !ROOTS.includes(r));
    if (unknown.length > 0)
        throw new rule_kind_1.RuleSpecError(`unknown data "${unknown[0]}"; a path starts with status or body (the endpoint's answer)`, [
            at,
        ]);
    return (0, compile_simple_1.compileSimple)(expr) ?? ((data) => json_logic_js_1.default.apply(expr, data));
}
/**
 * `- json: {source: pagerduty, path: "/incidents?statuses[]=triggered&service_ids[]={{target.k8s.label.pd-service}}",
 * denyWhen: {">": [{var: "body.incidents.length"}, 0]}, reason: "an open incident"}`: any HTTP endpoint
 * answering JSON, asked before the decision (the `json` need), judged here with json-logic.
 */
exports.jsonSignalRule = (0, rule_kind_1.defineRule)({
    key: 'json',
    description: 'Deny when a json-logic expression over the JSON an HTTP endpoint answers ({status, body}) is true; placeholders in the path; docs/attacked-services.md.',
    schema: {
        type: 'object',
        additionalProperties: false,
        required: ['path', 'denyWhen', 'reason'],
        properties: {
            source: {
                type: 'string',
                pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$',
                syntax: 'sourceName',
                description: `A json source of SIGNAL_SOURCES_FILE (default "${source_kind_1.DEFAULT_SOURCE}").`,
            },
            path: {
                type: 'string',
                minLength: 1,
                description: 'Path and query after the source URL, e.g. /incidents?statuses[]=triggered; placeholders ({{environment}}, {{target.<attribute>}}) are URL-encoded.',
            },
            denyWhen: { description: 'json-logic over {status, body}: the run is denied when it is true.' },
            detail: {
                description: 'json-logic over {status, body}: a value said with the denial, e.g. the titles of the open incidents.',
            },
            reason: { type: 'string', minLength: 1, description: 'What the message says when the rule denies.' },
            onUnavailable: {
                type: 'string',
                enum: ['deny', 'allow'],
                description: 'When the endpoint cannot answer (unreachable, timeout, HTTP 4xx/5xx, not JSON): deny (default) or allow (said in the message).',
            },
            whenMissing: {
                type: 'string',
                enum: ['deny', 'allow'],
                description: 'A target without an attribute a {{target.<key>}} placeholder reads: deny (default) or allow.',
            },
        },
    },
    compile(spec) {
        const path = (0, json_path_text_1.parseJsonPath)(spec.path);
        if (typeof path === 'string')
            throw new rule_kind_1.RuleSpecError(path, ['path']);
        const targetKeys = [...new Set((0, placeholder_text_1.targetKeysOf)(path))];
        if (spec.whenMissing !== undefined && targetKeys.length === 0)
            throw new rule_kind_1.RuleSpecError('whenMissing is about targets: it only applies with a {{target.<attribute>}} placeholder', ['whenMissing']);
        const source = spec.source ?? source_kind_1.DEFAULT_SOURCE;
        const check = {
            source,
            path,
            reason: spec.reason,
            onUnavailable: spec.onUnavailable ?? 'deny',
            denyWhen: compileLogic(spec.denyWhen, 'denyWhen'),
            detail: spec.detail === undefined ? undefined : compileLogic(spec.detail, 'detail'),
        };
        const run = ({ ctx }) => {
            const { runs, blind } = (0, signal_run_values_1.signalRunsOf)(ctx, targetKeys, spec.whenMissing);
            return (0, signal_run_values_1.withBlind)(blind, (0, json_check_1.checkJson)(check, ctx.facts.signals, runs));
        };
        const needs = [{ kind: 'json', source, path: spec.path, ...(0, signal_need_1.failsOpen)(spec.onUnavailable) }];
        return { needs: (0, placeholder_text_1.fillsEnvironment)(spec.path) ? [...needs, environment_facts_1.ENVIRONMENT_NAMES] : needs, check: run };
    },
});
//# sourceMappingURL=json-signal.js.map