"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.fieldNamesOf = fieldNamesOf;
exports.schemaSuggestion = schemaSuggestion;
exports.onePerMistake = onePerMistake;
const field_path_1 = require("../../validation/field-path");
const near_name_1 = require("./near-name");
/**
 * What a schema error may have meant, for every YAML document checked against a schema (policies,
 * test suites): an unknown field gets the closest known one (or those it begins) and the fields
 * allowed there; a value not allowed gets the closest allowed value.
 */
/** Every field name a schema (or several) knows: what a misspelt key is compared with where its object lists none. */
function fieldNamesOf(schemas) {
    const names = new Set();
    const walk = (v) => {
        if (Array.isArray(v))
            v.forEach(walk);
        else if (v && typeof v === 'object') {
            const o = v;
            if (o.properties && typeof o.properties === 'object')
                for (const k of Object.keys(o.properties))
                    names.add(k);
            Object.values(o).forEach(walk);
        }
    };
    walk(schemas);
    return [...names];
}
/** Fields refused where they are not known because they mean something only in one place: why. */
const ONLY_ELSEWHERE = {
    ownedBy: "it is only in a policy's match (in an exclude or an exception's match, a target without the attribute would let a run escape the owners' policy, docs/policies.md)",
};
/**
 * `: did you mean "expect"? (known fields: name, expect, ...)` for an unknown field (the known
 * fields left out when `listKnown` is false), `: did you mean "stop"?` for a value not allowed, else ''.
 * `fieldNames` stands in for the known fields where the error lists none.
 */
function schemaSuggestion(e, fieldNames, listKnown = true) {
    if (e.unknownKey !== undefined) {
        const elsewhere = ONLY_ELSEWHERE[e.unknownKey];
        if (elsewhere !== undefined)
            return `: ${elsewhere}`;
        const meant = (0, near_name_1.meantNames)(e.unknownKey, e.knownFields ?? fieldNames).filter((n) => n !== e.unknownKey);
        const known = e.knownFields === undefined || !listKnown ? '' : ` (known fields: ${e.knownFields.join(', ')})`;
        return `${(0, near_name_1.didYouMean)(meant)}${known}`;
    }
    if (e.badValue === undefined || e.allowedValues === undefined)
        return '';
    const near = (0, near_name_1.closest)(e.badValue, e.allowedValues);
    return near === undefined ? '' : (0, near_name_1.didYouMean)([near]);
}
/**
 * One line per mistake: the same fault reported through several keywords once, and `expct: ...`
 * (an unknown key whose did-you-mean names a field) without the `expect is required` beside it.
 */
function onePerMistake(errors, fieldNames) {
    const seen = new Set();
    const unique = errors.filter((e) => {
        const key = `${(0, field_path_1.pathText)(e.path)}:${e.message}`;
        if (seen.has(key))
            return false;
        seen.add(key);
        return true;
    });
    const meant = new Set(unique.flatMap((e) => e.unknownKey === undefined
        ? []
        : (0, near_name_1.meantNames)(e.unknownKey, e.knownFields ?? fieldNames).map((n) => `${(0, field_path_1.pathText)(e.path.slice(0, -1))}\n${n}`)));
    return unique.filter((e) => {
        const missing = e.unknownKey === undefined ? /^(\w+) is required$/.exec(e.message)?.[1] : undefined;
        return missing === undefined || !meant.has(`${(0, field_path_1.pathText)(e.path)}\n${missing}`);
    });
}
//# sourceMappingURL=schema-suggestion.js.map