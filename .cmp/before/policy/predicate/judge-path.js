"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.pinsKey = pinsKey;
exports.admitsValue = admitsValue;
exports.restricts = restricts;
const key_value_operators_1 = require("./key-value-operators");
/** Literals the engine cannot see into: a query could say anything. */
const opaque = (l) => l.leaf.kind === 'unknown' || l.leaf.kind === 'query';
const onKey = (l, key) => (l.leaf.kind === 'keyValue' || l.leaf.kind === 'presence' || l.leaf.kind === 'count') && l.leaf.key === key;
/** Whether the path selects targets by listed values of `key` (an EQUALS-like literal). */
function pinsKey(path, key) {
    const pin = path.find((l) => l.leaf.kind === 'keyValue' && l.leaf.key === key && key_value_operators_1.KEY_VALUE_OPERATORS.get(l.leaf.operator)?.pins === true);
    if (pin)
        return { verdict: 'yes', because: pin };
    const blind = path.find(opaque);
    return blind ? { verdict: 'unknown', because: blind } : { verdict: 'no' };
}
/** Whether one attribute literal lets a target whose `key` is `value` through. */
function accepts(l, value) {
    const leaf = l.leaf;
    if (leaf.kind === 'keyValue')
        return key_value_operators_1.KEY_VALUE_OPERATORS.get(leaf.operator)?.test(value, leaf.values) ?? true;
    if (leaf.kind === 'presence')
        return leaf.operator === 'PRESENT';
    if (leaf.kind === 'count')
        return key_value_operators_1.COUNT_OPERATORS.get(leaf.operator)?.allowsValues(leaf.count) ?? true;
    return true;
}
/**
 * Whether the path can select a target whose `key` has `value`, judged from the literals on that key:
 * `no` when one of them rejects the value, `yes` when they name the key and all let it through,
 * `unknown` when only an opaque literal could say, and `no` with no `because` when the path does not
 * mention the key at all (it is then unscoped by that key: requireKeys' concern).
 */
function admitsValue(path, key, value) {
    const literals = path.filter((l) => onKey(l, key));
    const rejecting = literals.find((l) => !accepts(l, value));
    if (rejecting)
        return { verdict: 'no', because: rejecting };
    if (literals.length > 0)
        return { verdict: 'yes', because: literals[0] };
    const blind = path.find(opaque);
    return blind ? { verdict: 'unknown', because: blind } : { verdict: 'no' };
}
/** Whether the path narrows the targets at all; a path with no literal selects every target. */
function restricts(path) {
    const known = path.find((l) => !opaque(l));
    if (known)
        return { verdict: 'yes', because: known };
    return path.length === 0 ? { verdict: 'no' } : { verdict: 'unknown', because: path[0] };
}
//# sourceMappingURL=judge-path.js.map