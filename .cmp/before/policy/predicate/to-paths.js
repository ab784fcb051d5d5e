"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_PATHS = void 0;
exports.toPaths = toPaths;
const key_value_operators_1 = require("./key-value-operators");
/** More ways through a tree than this are not judged (AND of ORs multiplies). */
exports.MAX_PATHS = 512;
class TooManyPaths extends Error {
}
/** A leaf under `not`: attribute leaves turn into their complement; others keep a negated flag. */
function literal(leaf, negated) {
    if (!negated)
        return { leaf, negated: false };
    switch (leaf.kind) {
        case 'keyValue':
            return {
                leaf: { ...leaf, operator: key_value_operators_1.KEY_VALUE_OPERATORS.get(leaf.operator)?.complement ?? leaf.operator },
                negated: false,
            };
        case 'presence':
            return { leaf: { ...leaf, operator: leaf.operator === 'PRESENT' ? 'NOT_PRESENT' : 'PRESENT' }, negated: false };
        case 'count':
            return {
                leaf: { ...leaf, operator: key_value_operators_1.COUNT_OPERATORS.get(leaf.operator)?.complement ?? leaf.operator },
                negated: false,
            };
        default:
            return { leaf, negated: true };
    }
}
function product(a, b) {
    if (a.length * b.length > exports.MAX_PATHS)
        throw new TooManyPaths();
    return a.flatMap((x) => b.map((y) => [...x, ...y]));
}
function expand(p, negated) {
    switch (p.kind) {
        case 'not':
            return expand(p.predicate, !negated);
        case 'group': {
            // An empty group filters nothing, whatever its operator or negation: it selects every target.
            if (p.predicates.length === 0)
                return [[]];
            const children = p.predicates.map((c) => expand(c, negated));
            const isAnd = (p.operator === 'AND') !== negated; // De Morgan under `not`
            if (isAnd)
                return children.reduce(product);
            const all = children.flat();
            if (all.length > exports.MAX_PATHS)
                throw new TooManyPaths();
            return all;
        }
        default:
            return [[literal(p, negated)]];
    }
}
/**
 * Every way through the tree (disjunctive normal form), with negations pushed down to the leaves.
 * A tree too large to expand is one path holding a single unknown leaf, so it cannot be decided.
 */
function toPaths(p) {
    try {
        return expand(p, false);
    }
    catch (err) {
        if (!(err instanceof TooManyPaths))
            throw err;
        return [
            [{ leaf: { kind: 'unknown', shape: `predicate with more than ${exports.MAX_PATHS} ways through it` }, negated: false }],
        ];
    }
}
//# sourceMappingURL=to-paths.js.map