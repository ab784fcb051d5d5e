"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.redactText = void 0;
exports.targetValuesToRedact = targetValuesToRedact;
exports.targetRedactor = targetRedactor;
exports.redactor = redactor;
exports.redactDeep = redactDeep;
const redaction_marker_1 = require("./redaction-marker");
const json_object_1 = require("../common/json-object");
const token_redactor_1 = require("./token-redactor");
// Loops, not filter/flatMap: this runs for every audit line, and the payload is walked once.
/** Adds a target's name (unless only some keys are masked) and its attribute values (of those keys). */
function collectTarget(target, keys, values) {
    if (!keys && typeof target.name === 'string')
        values.add(target.name);
    const attributes = target.attributes;
    if (!Array.isArray(attributes))
        return;
    for (const a of attributes) {
        if ((0, json_object_1.isJsonObject)(a) && typeof a.value === 'string' && (!keys || (typeof a.key === 'string' && keys.has(a.key))))
            values.add(a.value);
    }
}
/**
 * Adds the values of a radius predicate's leaves `{key, operator, values}` (of those keys), at any
 * depth, with a stack instead of recursion: the predicate selects targets by the same values.
 */
function collectPredicate(predicate, keys, values) {
    const stack = [predicate];
    while (stack.length > 0) {
        const p = stack.pop();
        if (Array.isArray(p)) {
            for (const item of p)
                stack.push(item);
            continue;
        }
        if (!(0, json_object_1.isJsonObject)(p))
            continue;
        if (typeof p.key === 'string' && Array.isArray(p.values)) {
            if (!keys || keys.has(p.key))
                for (const v of p.values)
                    if (typeof v === 'string')
                        values.add(v);
            continue;
        }
        for (const v of Object.values(p))
            if (typeof v === 'object' && v !== null)
                stack.push(v);
    }
}
/**
 * Adds the values of the targets (and radius predicates) of these steps and of their validations (steps too), in payload
 * order, with a stack instead of recursion: an error answer's audit line is built from a body that
 * failed validation, nested as deep as 1 MB allows, and must not end in a stack overflow.
 */
function collectValues(steps, keys, values) {
    if (!Array.isArray(steps))
        return;
    const lists = [steps];
    const next = [0];
    while (lists.length > 0) {
        const top = lists.length - 1;
        const list = lists[top];
        if (next[top] >= list.length) {
            lists.pop();
            next.pop();
            continue;
        }
        const step = list[next[top]++];
        if (!(0, json_object_1.isJsonObject)(step))
            continue;
        if ((0, json_object_1.isJsonObject)(step.radius))
            collectPredicate(step.radius.predicate, keys, values);
        if (Array.isArray(step.targetExecutions)) {
            for (const target of step.targetExecutions)
                if ((0, json_object_1.isJsonObject)(target))
                    collectTarget(target, keys, values);
        }
        if (Array.isArray(step.validations)) {
            lists.push(step.validations);
            next.push(0);
        }
    }
}
/**
 * The target values to mask in a text about this body (an audit line, a guard stop, a notification):
 * attribute values (of every key, or of the listed keys) of its targets and radius predicates and,
 * when everything is redacted, target names. Reads the body leniently, so it works
 * on a validated payload and on a body that failed validation alike.
 */
function targetValues(body, redaction) {
    const values = new Set();
    if (redaction.kind === 'none' || !(0, json_object_1.isJsonObject)(body) || !(0, json_object_1.isJsonObject)(body.execution))
        return values;
    collectValues(body.execution.steps, redaction.kind === 'keys' ? new Set(redaction.keys) : undefined, values);
    values.delete('');
    return values;
}
/** targetValues as a list, longest first (a value that contains another is masked whole). */
function targetValuesToRedact(body, redaction) {
    const values = targetValues(body, redaction);
    return values.size < 2 ? [...values] : [...values].sort((a, b) => b.length - a.length);
}
/**
 * The redactor of this body's target values, for every string of one line (audit, notification,
 * guard stop); undefined when there is nothing to mask. The values are looked up, never sorted.
 */
function targetRedactor(body, redaction) {
    const values = targetValues(body, redaction);
    return values.size === 0 ? undefined : (0, token_redactor_1.tokenRedactor)(values, redaction_marker_1.REDACTED);
}
/** The redactor of a list of values (where two fit at one place, the longer is masked). */
function redactor(values) {
    return (0, token_redactor_1.tokenRedactor)(new Set(values), redaction_marker_1.REDACTED);
}
const redactText = (text, values) => redactor(values)(text);
exports.redactText = redactText;
/** Masks every string of a JSON-like value (arrays and plain objects are walked). */
function redactDeep(value, redact) {
    const walk = (v) => {
        if (typeof v === 'string')
            return redact(v);
        if (Array.isArray(v))
            return v.map(walk);
        if ((0, json_object_1.isJsonObject)(v))
            return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
        return v;
    };
    return walk(value);
}
//# sourceMappingURL=target-redaction.js.map