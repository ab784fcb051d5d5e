"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.maskAttributes = maskAttributes;
const json_object_1 = require("../common/json-object");
const redaction_marker_1 = require("./redaction-marker");
/** Copy on write: `list` itself when `each` changed no element, else a copy with the changes. */
function mapSame(list, each) {
    let out;
    list.forEach((item, i) => {
        const next = each(item);
        if (next !== item)
            (out ??= [...list])[i] = next;
    });
    return out ?? list;
}
/** Masks the values of listed keys in payloads. */
class Masker {
    keys;
    constructor(keys) {
        this.keys = keys;
    }
    listed(o) {
        return typeof o.key === 'string' && this.keys.has(o.key);
    }
    /** A target attribute `{key, value}` of a listed key. */
    attribute = (a) => {
        if (!(0, json_object_1.isJsonObject)(a) || !this.listed(a) || a.value === undefined || (0, redaction_marker_1.isRedactedValue)(a.value))
            return a;
        return { ...a, value: redaction_marker_1.REDACTED };
    };
    /** A radius predicate, at any depth: a leaf `{key, operator, values}` of a listed key has its values masked. */
    predicate = (p) => {
        if (Array.isArray(p))
            return mapSame(p, this.predicate);
        if (!(0, json_object_1.isJsonObject)(p))
            return p;
        if (this.listed(p) && Array.isArray(p.values)) {
            return { ...p, values: p.values.map(() => redaction_marker_1.REDACTED) };
        }
        let out;
        for (const [k, v] of Object.entries(p)) {
            const next = typeof v === 'object' && v !== null ? this.predicate(v) : v;
            if (next !== v)
                (out ??= { ...p })[k] = next;
        }
        return out ?? p;
    };
    target = (t) => {
        if (!(0, json_object_1.isJsonObject)(t) || !Array.isArray(t.attributes))
            return t;
        const attributes = mapSame(t.attributes, this.attribute);
        return attributes === t.attributes ? t : { ...t, attributes };
    };
    step = (step) => {
        if (!(0, json_object_1.isJsonObject)(step))
            return step;
        let out;
        if (Array.isArray(step.targetExecutions)) {
            const targets = mapSame(step.targetExecutions, this.target);
            if (targets !== step.targetExecutions)
                (out ??= { ...step }).targetExecutions = targets;
        }
        if ((0, json_object_1.isJsonObject)(step.radius) && step.radius.predicate !== undefined) {
            const predicate = this.predicate(step.radius.predicate);
            if (predicate !== step.radius.predicate)
                (out ??= { ...step }).radius = { ...step.radius, predicate };
        }
        if (Array.isArray(step.validations)) {
            const validations = mapSame(step.validations, this.step);
            if (validations !== step.validations)
                (out ??= { ...step }).validations = validations;
        }
        return out ?? step;
    };
}
/**
 * The payload with the values of the listed attribute keys replaced by REDACTED wherever a step
 * states them: its targets' attributes and its radius predicate (which selects targets by them),
 * in every step and nested validation. The payload itself is never changed (the decision still
 * reads it). The values to mask in texts about it are targetValuesToRedact's, for the same keys.
 */
function maskAttributes(payload, keys) {
    if (keys.size === 0 ||
        !(0, json_object_1.isJsonObject)(payload) ||
        !(0, json_object_1.isJsonObject)(payload.execution) ||
        !Array.isArray(payload.execution.steps))
        return payload;
    const steps = mapSame(payload.execution.steps, new Masker(keys).step);
    return steps === payload.execution.steps ? payload : { ...payload, execution: { ...payload.execution, steps } };
}
//# sourceMappingURL=mask-attributes.js.map