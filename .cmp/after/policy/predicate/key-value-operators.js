"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.COUNT_OPERATORS = exports.KEY_VALUE_OPERATORS = void 0;
const BASE = {
    EQUALS: (a, e) => a === e,
    CONTAINS: (a, e) => a.includes(e),
    STARTS_WITH: (a, e) => a.startsWith(e),
    ENDS_WITH: (a, e) => a.endsWith(e),
};
function build() {
    const out = new Map();
    for (const [name, compare] of Object.entries(BASE)) {
        for (const ignoreCase of [false, true]) {
            const suffix = ignoreCase ? '_IGNORE_CASE' : '';
            const cmp = ignoreCase ? (a, e) => compare(a.toLowerCase(), e.toLowerCase()) : compare;
            const positive = `${name}${suffix}`;
            const negative = `NOT_${name}${suffix}`;
            out.set(positive, { test: (a, vs) => vs.some((v) => cmp(a, v)), complement: negative, pins: name === 'EQUALS' });
            out.set(negative, { test: (a, vs) => !vs.some((v) => cmp(a, v)), complement: positive, pins: false });
        }
    }
    return out;
}
exports.KEY_VALUE_OPERATORS = build();
exports.COUNT_OPERATORS = new Map([
    ['EQUAL', { complement: 'NOT_EQUAL', allowsValues: (n) => n >= 1 }],
    ['NOT_EQUAL', { complement: 'EQUAL', allowsValues: () => true }],
    ['GREATER_THAN', { complement: 'LESS_THAN_OR_EQUAL', allowsValues: () => true }],
    ['GREATER_THAN_OR_EQUAL', { complement: 'LESS_THAN', allowsValues: () => true }],
    ['LESS_THAN', { complement: 'GREATER_THAN_OR_EQUAL', allowsValues: (n) => n > 1 }],
    ['LESS_THAN_OR_EQUAL', { complement: 'GREATER_THAN', allowsValues: (n) => n >= 1 }],
]);
//# sourceMappingURL=key-value-operators.js.map