"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parametersRule = void 0;
const duration_1 = require("../../syntax/duration");
const parameter_value_1 = require("../../syntax/parameter-value");
const rule_kind_1 = require("../core/rule-kind");
const checked_1 = require("../core/checked");
const step_text_1 = require("../engine/step-text");
const bound = (description) => ({ type: ['number', 'string'], minLength: 1, description });
/** Reads one limit's bounds; both bounds of a limit are the same kind (numbers, or durations). */
function compileLimit(name, limit) {
    const bounds = ['min', 'max'].filter((b) => limit[b] !== undefined);
    if (bounds.length === 0)
        throw new rule_kind_1.RuleSpecError(`parameter ${name} needs min or max`, [name]);
    const kinds = new Set(bounds.map((b) => typeof limit[b]));
    if (kinds.size > 1)
        throw new rule_kind_1.RuleSpecError(`parameter ${name} mixes a number and a duration; write both bounds as durations (e.g. 500ms) or both as numbers`, [name]);
    const kind = kinds.has('string') ? 'duration' : 'number';
    const out = { name, kind, denyMissing: limit.whenMissing !== 'allow' };
    (0, rule_kind_1.checkEach)(bounds, (b) => {
        const raw = limit[b];
        if (typeof raw === 'string' && /^\s*[\d.]+\s*$/.test(raw)) {
            throw new rule_kind_1.RuleSpecError(`${name}.${b} "${raw}" has no unit: write a number (${raw}) or a duration such as ${raw}s`, [name, b]);
        }
        const n = typeof raw === 'number' ? raw : (0, duration_1.parseDuration)(raw);
        if (n === undefined)
            throw new rule_kind_1.RuleSpecError(`${name}.${b} "${raw}" is not a duration; use units ms, s, m, h, d as in 500ms, 30s, 5m, 1h30m`, [name, b]);
        out[b] = n;
    });
    if (out.min !== undefined && out.max !== undefined && out.min > out.max) {
        throw new rule_kind_1.RuleSpecError(`parameter ${name}: min ${limit.min} is larger than max ${limit.max}`, [name, 'min']);
    }
    return out;
}
/** How a value breaks the limit, as the message says it; undefined when it keeps the limit. */
function breach(l, n) {
    if (n === undefined)
        return `which is not a ${l.kind === 'duration' ? 'duration' : 'number'}`;
    if (l.max !== undefined && n > l.max)
        return `more than the ${(0, parameter_value_1.showValue)(l.kind, l.max)} allowed`;
    if (l.min !== undefined && n < l.min)
        return `less than the minimum ${(0, parameter_value_1.showValue)(l.kind, l.min)}`;
    return undefined;
}
function judge(ref, l) {
    const params = ref.step.parameters;
    const raw = params && Object.hasOwn(params, l.name) ? params[l.name] : undefined;
    if (raw === undefined || raw === null) {
        if (!l.denyMissing)
            return undefined;
        return {
            reason: `cannot decide: ${(0, step_text_1.stepName)(ref)} sends no ${l.name} parameter (preflight requests may omit parameters); scope the policy to actions that have ${l.name} with match.actionIds, or set whenMissing: allow`,
            step: ref,
            value: l.name,
            status: 'undecidable',
        };
    }
    const n = (0, parameter_value_1.readValue)(l.kind, raw);
    const why = breach(l, n);
    if (why === undefined)
        return undefined;
    const said = JSON.stringify(raw);
    if (n === undefined)
        return {
            reason: `cannot decide: ${(0, step_text_1.stepName)(ref)} sets ${l.name} to ${said}, ${why}`,
            step: ref,
            value: said,
            status: 'undecidable',
        };
    return { reason: `${(0, step_text_1.stepName)(ref)} sets ${l.name} to ${said}, ${why}`, step: ref, value: said };
}
/**
 * `- parameters: {duration: {max: 5m}, cpuLoad: {min: 1, max: 80, whenMissing: allow}}`: limits on the
 * action parameters of each step in scope. String bounds are durations; numbers in a sent duration
 * are milliseconds; numeric strings (`"80"`) count as numbers.
 */
exports.parametersRule = (0, rule_kind_1.defineRule)({
    key: 'parameters',
    description: 'Limit step parameters: numbers (cpuLoad: {max: 80}) or durations (duration: {max: 5m}). A missing parameter denies unless whenMissing: allow.',
    schema: {
        type: 'object',
        minProperties: 1,
        propertyNames: { type: 'string', minLength: 1, syntax: 'trimmed' },
        additionalProperties: {
            type: 'object',
            additionalProperties: false,
            properties: {
                min: bound('Smallest allowed value: a number, or a duration such as 10s.'),
                max: bound('Largest allowed value: a number, or a duration such as 5m.'),
                whenMissing: {
                    type: 'string',
                    enum: ['deny', 'allow'],
                    default: 'deny',
                    description: 'What a step that does not send this parameter means.',
                },
            },
        },
        description: 'Parameter name (as in step.parameters) -> limit.',
    },
    compile(spec) {
        const limits = (0, rule_kind_1.checkEach)(Object.entries(spec), ([name, limit]) => compileLimit(name, limit));
        return {
            check: (0, checked_1.findings)(({ steps }) => {
                const out = [];
                for (const ref of steps) {
                    for (const l of limits) {
                        const v = judge(ref, l);
                        if (v)
                            out.push(v);
                    }
                }
                return out;
            }),
        };
    },
});
//# sourceMappingURL=parameters.js.map