"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_DEPTH = void 0;
exports.parsePredicate = parsePredicate;
const key_value_operators_1 = require("./key-value-operators");
const json_object_1 = require("../../common/json-object");
/** Deeper trees are not judged (a payload could nest without end). */
exports.MAX_DEPTH = 32;
const isText = (v) => typeof v === 'string' && v.length > 0;
const isTextList = (v) => Array.isArray(v) && v.every((x) => typeof x === 'string');
const unknown = (shape) => ({ kind: 'unknown', shape });
/** The property that says which shape an object is; an object must show exactly one. */
const SHAPES = [
    ['group', (o) => 'predicates' in o],
    ['not', (o) => 'not' in o],
    ['query', (o) => 'query' in o],
    ['agentId', (o) => 'agentId' in o],
    ['presence', (o) => 'presenceOperator' in o],
    ['count', (o) => 'valueCountOperator' in o],
    ['key', (o) => 'key' in o && !('presenceOperator' in o) && !('valueCountOperator' in o)],
    ['name', (o) => 'name' in o],
    ['types', (o) => 'types' in o],
];
function keyLeaf(o) {
    const op = typeof o.operator === 'string' ? o.operator.toUpperCase() : undefined;
    if (!isText(o.key) || op === undefined)
        return unknown(`key predicate without a key and an operator (${JSON.stringify(o)})`);
    if (o.values === undefined)
        return unknown(`key predicate "${o.key} ${op}" without values`);
    if (!isTextList(o.values) || o.values.length === 0)
        return unknown(`key predicate "${o.key} ${op}" with no string values`);
    if (!key_value_operators_1.KEY_VALUE_OPERATORS.has(op))
        return unknown(`operator ${op} on ${o.key} (known: ${[...key_value_operators_1.KEY_VALUE_OPERATORS.keys()].join(', ')})`);
    return { kind: 'keyValue', key: o.key, operator: op, values: o.values };
}
function presenceLeaf(o) {
    const op = o.presenceOperator;
    if (!isText(o.key) || (op !== 'PRESENT' && op !== 'NOT_PRESENT'))
        return unknown(`presence predicate ${JSON.stringify(o)}`);
    return { kind: 'presence', key: o.key, operator: op };
}
function countLeaf(o) {
    const op = o.valueCountOperator;
    const count = typeof o.value === 'string' && /^\d+$/.test(o.value.trim())
        ? Number(o.value)
        : typeof o.value === 'number'
            ? o.value
            : NaN;
    if (!isText(o.key) || typeof op !== 'string' || !key_value_operators_1.COUNT_OPERATORS.has(op) || !Number.isInteger(count)) {
        return unknown(`value-count predicate ${JSON.stringify(o)}`);
    }
    return { kind: 'count', key: o.key, operator: op, count };
}
function parseObject(o, depth) {
    const shapes = SHAPES.filter(([, is]) => is(o)).map(([name]) => name);
    if (shapes.length !== 1) {
        return unknown(shapes.length === 0
            ? `object with fields ${Object.keys(o).join(', ') || '(none)'}`
            : `object mixing ${shapes.join(' and ')}`);
    }
    switch (shapes[0]) {
        case 'group': {
            const op = typeof o.operator === 'string' ? o.operator.toUpperCase() : undefined;
            if ((op !== 'AND' && op !== 'OR') || !Array.isArray(o.predicates))
                return unknown(`group with operator ${JSON.stringify(o.operator)}`);
            return { kind: 'group', operator: op, predicates: o.predicates.map((p) => parsePredicate(p, depth + 1)) };
        }
        case 'not':
            return { kind: 'not', predicate: parsePredicate(o.not, depth + 1) };
        case 'query':
            return typeof o.query === 'string' ? { kind: 'query', query: o.query } : unknown('query that is not a string');
        case 'agentId':
            return isText(o.agentId) ? { kind: 'agent', agentId: o.agentId } : unknown('agentId that is not a string');
        case 'presence':
            return presenceLeaf(o);
        case 'count':
            return countLeaf(o);
        case 'key':
            return keyLeaf(o);
        case 'name':
            return typeof o.name === 'string' ? { kind: 'name', name: o.name } : unknown('name that is not a string');
        default:
            return isTextList(o.types) ? { kind: 'types', types: o.types } : unknown('types that are not a list of strings');
    }
}
/** Reads a payload's predicate. Never throws: what it cannot read becomes an `unknown` leaf. */
function parsePredicate(raw, depth = 0) {
    if (depth > exports.MAX_DEPTH)
        return unknown(`predicate nested deeper than ${exports.MAX_DEPTH} levels`);
    if (Array.isArray(raw))
        return unknown('a list where a predicate object was expected');
    if (!(0, json_object_1.isJsonObject)(raw))
        return unknown(`${raw === null ? 'null' : typeof raw} where a predicate object was expected`);
    return parseObject(raw, depth);
}
//# sourceMappingURL=parse-predicate.js.map