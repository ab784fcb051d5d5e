"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.compileSimple = compileSimple;
const json_logic_js_1 = __importDefault(require("json-logic-js"));
/* eslint-disable eqeqeq -- json-logic's == and != are JavaScript's loose equality, on purpose */
/** json-logic-js 2.x's comparison operations, as it defines them (`<` and `<=` with a third value: between). */
const COMPARATORS = {
    // biome-ignore lint/suspicious/noDoubleEquals: json-logic's == is JavaScript's loose equality, by its specification
    '==': (a, b) => a == b,
    '===': (a, b) => a === b,
    // biome-ignore lint/suspicious/noDoubleEquals: json-logic's != is JavaScript's loose inequality, by its specification
    '!=': (a, b) => a != b,
    '!==': (a, b) => a !== b,
    '>': (a, b) => a > b,
    '>=': (a, b) => a >= b,
    '<': (a, b, c) => c === undefined ? a < b : a < b && b < c,
    '<=': (a, b, c) => c === undefined ? a <= b : a <= b && b <= c,
};
/* eslint-enable eqeqeq */
const isPrimitive = (v) => v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
/** json-logic-js's `var`: a dotted path into the data, `null` (or the default) where it ends. */
function compileVar(args) {
    const [path, fallback] = args;
    if (args.length > 2 || !(typeof path === 'string' || typeof path === 'number'))
        return undefined;
    if (args.length === 2 && !isPrimitive(fallback))
        return undefined;
    const notFound = fallback === undefined ? null : fallback;
    if (path === '')
        return (data) => data;
    const segments = String(path).split('.');
    return (data) => {
        let at = data;
        for (const segment of segments) {
            if (at === null || at === undefined)
                return notFound;
            at = at[segment];
            if (at === undefined)
                return notFound;
        }
        return at;
    };
}
/**
 * Compiles the json-logic expressions most conditions are made of (comparisons of data paths and
 * literals, joined by `and`, `or`, `!`, `!!`) into closures, with json-logic-js's exact semantics;
 * undefined for anything else, which json-logic-js then applies itself. A condition is checked
 * once per request for every distinct spec, and at thousands of policies an interpreted walk of
 * the expression (keys, array copies, path splits) was most of a condition's cost.
 */
function compileSimple(node) {
    if (isPrimitive(node))
        return () => node;
    if (!json_logic_js_1.default.is_logic(node))
        return undefined; // arrays and objects that are not one operation
    const op = Object.keys(node)[0];
    const raw = node[op];
    const args = Array.isArray(raw) ? raw : [raw];
    if (op === 'var')
        return compileVar(args);
    const parts = args.map(compileSimple);
    if (!parts.every((p) => p !== undefined))
        return undefined;
    const compare = Object.hasOwn(COMPARATORS, op) ? COMPARATORS[op] : undefined;
    if (compare) {
        if (parts.length > 3)
            return undefined;
        const [a, b, c] = parts;
        const none = () => undefined;
        return compileCompare(compare, a ?? none, b ?? none, c ?? none);
    }
    if (op === '!' || op === '!!') {
        // json-logic-js evaluates every value first (one that throws throws), then looks at the first.
        const negate = op === '!';
        return (data) => {
            let first;
            for (let i = 0; i < parts.length; i++) {
                const value = parts[i](data);
                if (i === 0)
                    first = value;
            }
            return json_logic_js_1.default.truthy(first) !== negate;
        };
    }
    if (op === 'and' || op === 'or') {
        const wanted = op === 'or';
        return (data) => {
            let current;
            for (const part of parts) {
                current = part(data);
                if (json_logic_js_1.default.truthy(current) === wanted)
                    return current;
            }
            return current;
        };
    }
    return undefined;
}
function compileCompare(compare, a, b, c) {
    return (data) => compare(a(data), b(data), c(data));
}
//# sourceMappingURL=compile-simple.js.map