"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.checkExpression = checkExpression;
const rule_spec_error_1 = require("../core/rule-spec-error");
const operators_1 = require("./operators");
const fail = (message, path) => {
    throw new rule_spec_error_1.RuleSpecError(message, path);
};
/** A `var` path must be a literal (`"execution.teamKey"`, `0`): a computed one could not be checked. */
function checkVarPath(value, path) {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0)
        return;
    if (typeof value !== 'string') {
        fail(`a data path must be a literal string such as "execution.teamKey", got ${JSON.stringify(value)}`, path);
        return;
    }
    if (value === '')
        return; // the whole data object
    value.split('.').forEach((segment) => {
        if (segment === '')
            fail(`data path "${value}" has an empty segment`, path);
        if (operators_1.FORBIDDEN_SEGMENTS.has(segment) || segment.startsWith('__')) {
            fail(`data path "${value}" reaches "${segment}": conditions may only read data, never prototypes or constructors`, path);
        }
    });
}
function checkVar(args, path) {
    if (args.length === 0 || args.length > 2)
        fail('var takes a path and an optional default: {"var": "path"} or {"var": ["path", default]}', path);
    checkVarPath(args[0], args.length === 1 ? path : [...path, '0']);
    if (args.length === 2)
        checkExpression(args[1], [...path, '1']);
}
function checkMissing(op, args, path) {
    if (op === 'missing_some') {
        if (args.length !== 2 || typeof args[0] !== 'number' || !Array.isArray(args[1])) {
            fail('missing_some takes [minimum count, [paths...]]', path);
        }
        args[1].forEach((p, i) => checkVarPath(p, [...path, '1', String(i)]));
        return;
    }
    const keys = args.length === 1 && Array.isArray(args[0]) ? args[0] : args;
    keys.forEach((p, i) => checkVarPath(p, [...path, String(i)]));
}
/**
 * Checks a json-logic expression at load time: every operation is on the allow-list, every data
 * path is a literal that stays inside the data. Throws RuleSpecError with the path of the problem.
 */
function checkExpression(node, path) {
    if (node === null || typeof node !== 'object')
        return;
    if (Array.isArray(node)) {
        node.forEach((item, i) => checkExpression(item, [...path, String(i)]));
        return;
    }
    const keys = Object.keys(node);
    if (keys.length !== 1) {
        fail(`an object in a condition must be one operation such as {"==": [a, b]}; this one has ${keys.length === 0 ? 'no keys' : `the keys ${keys.join(', ')}`}`, path);
    }
    const op = keys[0];
    const opPath = [...path, op];
    if (op === 'method')
        fail('operator "method" is not allowed: it calls methods of data objects', opPath);
    if (!operators_1.ALLOWED_OPERATORS.has(op))
        fail(`unknown operator "${op}"; allowed: ${[...operators_1.ALLOWED_OPERATORS].join(' ')}`, opPath);
    const raw = node[op];
    const args = Array.isArray(raw) ? raw : [raw];
    if (op === 'var')
        checkVar(args, opPath);
    else if (op === 'missing' || op === 'missing_some')
        checkMissing(op, args, opPath);
    else
        args.forEach((arg, i) => checkExpression(arg, Array.isArray(raw) ? [...opPath, String(i)] : opPath));
}
//# sourceMappingURL=check-expression.js.map