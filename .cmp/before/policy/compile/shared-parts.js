"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sharedParts = void 0;
exports.sharingKey = sharingKey;
exports.sharedScope = sharedScope;
exports.sharedRule = sharedRule;
const rule_spec_error_1 = require("../core/rule-spec-error");
const shapes_1 = require("../core/shapes");
const scope_1 = require("../engine/scope");
const rules_1 = require("../rules");
const sharedParts = () => ({ checks: new Map(), scopes: new Map() });
exports.sharedParts = sharedParts;
/**
 * The text two specs share exactly when they are the same value: JSON of plain data. JSON alone
 * would not do: it writes .inf, -.inf and .nan (YAML numbers) all as null and -0 as 0, so a
 * condition comparing with .inf would share the check of one comparing with null. A spec holding
 * such a number, or anything but plain data, gets no key and is compiled on its own.
 */
function sharingKey(value) {
    // Checked first, then written without a replacer, which JSON.stringify calls for every value:
    // half the time (measured on Node 26.12.1: the 35,000 specs of 10,000 policies, 22 ms -> 10 ms).
    if (!exactAsJson(value))
        return undefined;
    return JSON.stringify(value);
}
/** Whether JSON writes `value` as exactly itself: plain objects, arrays, strings, booleans, null and finite numbers but -0. */
function exactAsJson(value) {
    if (typeof value === 'number')
        return Number.isFinite(value) && !Object.is(value, -0);
    if (typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol')
        return false;
    if (typeof value !== 'object' || value === null)
        return true;
    if (Array.isArray(value))
        return value.every(exactAsJson);
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null)
        return false;
    for (const key of Object.keys(value))
        if (!exactAsJson(value[key]))
            return false;
    return true;
}
/** The compiled scope of this spec, compiled once per load. */
function sharedScope(spec, isExclude, shared) {
    const specKey = sharingKey(spec ?? null);
    if (specKey === undefined)
        return (0, scope_1.compileScope)(spec, isExclude);
    const key = `${isExclude ? 'exclude' : 'match'}\n${specKey}`;
    let scope = shared.scopes.get(key);
    if (!scope) {
        scope = (0, scope_1.compileScope)(spec, isExclude);
        shared.scopes.set(key, scope);
    }
    return scope;
}
/** One rule, compiled once per load for every policy that repeats its kind and spec. */
function sharedRule(key, spec, i, shared) {
    const kind = rules_1.RULES_BY_KEY.get(key);
    if (!kind)
        throw new rule_spec_error_1.RuleSpecError(`unknown rule kind "${key}"`);
    // The spec after validation (defaults filled in): the same value is the same check.
    const specKey = sharingKey(spec);
    const same = specKey === undefined ? undefined : `${key}\n${specKey}`;
    let compiled = same === undefined ? undefined : shared.checks.get(same);
    if (!compiled) {
        compiled = kind.compile(spec);
        if (same !== undefined)
            shared.checks.set(same, compiled);
    }
    return (0, shapes_1.ruleOf)({ kind: key, path: `rules[${i}].${key}`, ...compiled });
}
//# sourceMappingURL=shared-parts.js.map