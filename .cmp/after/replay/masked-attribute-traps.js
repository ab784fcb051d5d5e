"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.trapMaskedAttributes = trapMaskedAttributes;
const json_object_1 = require("../common/json-object");
const redaction_marker_1 = require("../redaction/redaction-marker");
/** Replaces `field` of `o` by a getter that notes `key` in `reads` and returns the same value. */
function trap(o, field, key, reads) {
    const value = o[field];
    Object.defineProperty(o, field, {
        enumerable: true,
        get() {
            reads.keys.add(key);
            return value;
        },
    });
}
/** Predicate leaves of a masked key: reading their values notes the key. */
function trapPredicate(p, keys, reads) {
    if (Array.isArray(p)) {
        for (const item of p)
            trapPredicate(item, keys, reads);
        return;
    }
    if (!(0, json_object_1.isJsonObject)(p))
        return;
    if (typeof p.key === 'string' && keys.has(p.key) && Array.isArray(p.values) && p.values.every(redaction_marker_1.isRedactedValue)) {
        trap(p, 'values', p.key, reads);
        return;
    }
    for (const v of Object.values(p))
        if (typeof v === 'object' && v !== null)
            trapPredicate(v, keys, reads);
}
function trapTargets(steps, keys, reads) {
    if (!Array.isArray(steps))
        return;
    for (const step of steps) {
        if (!(0, json_object_1.isJsonObject)(step))
            continue;
        if ((0, json_object_1.isJsonObject)(step.radius))
            trapPredicate(step.radius.predicate, keys, reads);
        if (Array.isArray(step.targetExecutions)) {
            for (const target of step.targetExecutions) {
                if (!(0, json_object_1.isJsonObject)(target) || !Array.isArray(target.attributes))
                    continue;
                for (const attribute of target.attributes) {
                    if (!(0, json_object_1.isJsonObject)(attribute) ||
                        typeof attribute.key !== 'string' ||
                        !keys.has(attribute.key) ||
                        !(0, redaction_marker_1.isRedactedValue)(attribute.value))
                        continue;
                    trap(attribute, 'value', attribute.key, reads);
                }
            }
        }
        trapTargets(step.validations, keys, reads);
    }
}
/**
 * Turns every masked attribute value of a payload (in targets' attributes and radius predicates;
 * `[redacted]`, or `[masked]` in records written by 0.1.0) into a getter that notes the read
 * (the payload is already validated: it is read only by the decision from here on). A decision that read none of them did
 * not depend on the values the archive lacks, so its replay is exact; one that read any cannot be
 * replayed, whatever rule kind (present or future) did the reading.
 */
function trapMaskedAttributes(payload, masked) {
    const reads = { keys: new Set() };
    if (!masked || masked.length === 0 || !(0, json_object_1.isJsonObject)(payload) || !(0, json_object_1.isJsonObject)(payload.execution))
        return reads;
    trapTargets(payload.execution.steps, new Set(masked), reads);
    return reads;
}
//# sourceMappingURL=masked-attribute-traps.js.map