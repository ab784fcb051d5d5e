"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.FORBIDDEN_SEGMENTS = exports.ALLOWED_OPERATORS = void 0;
/**
 * The json-logic operators a condition may use, checked at load time. Everything else is rejected:
 * `method` (it calls methods of data objects), `log` (a side effect), dotted names and any
 * operation someone might add to json-logic-js globally.
 */
exports.ALLOWED_OPERATORS = new Set([
    // logic and comparison
    '==',
    '===',
    '!=',
    '!==',
    '>',
    '>=',
    '<',
    '<=',
    '!',
    '!!',
    'and',
    'or',
    'if',
    '?:',
    // arithmetic
    '+',
    '-',
    '*',
    '/',
    '%',
    'min',
    'max',
    // strings and arrays
    'in',
    'cat',
    'substr',
    'merge',
    'map',
    'filter',
    'reduce',
    'all',
    'none',
    'some',
    // data access (paths checked separately)
    'var',
    'missing',
    'missing_some',
]);
/** Path segments that would walk from data into an object's prototype or constructor. */
exports.FORBIDDEN_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);
//# sourceMappingURL=operators.js.map