"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.predicatePaths = predicatePaths;
const parse_predicate_1 = require("./parse-predicate");
const to_paths_1 = require("./to-paths");
const memo_1 = require("../core/memo");
const PREDICATE_PATHS = (0, memo_1.memoKey)('the ways through each radius.predicate object');
/**
 * The ways through a step's radius.predicate, read once per request: every blastRadius policy in
 * scope judges the same steps, and a predicate may expand to hundreds of paths. Keyed by the
 * payload's own predicate object in the request's memo, which dies with the request.
 */
function predicatePaths(raw, memo) {
    if (typeof raw !== 'object' || raw === null)
        return (0, to_paths_1.toPaths)((0, parse_predicate_1.parsePredicate)(raw));
    const byPredicate = memo.get(PREDICATE_PATHS, () => new Map());
    let paths = byPredicate.get(raw);
    if (!paths)
        byPredicate.set(raw, (paths = (0, to_paths_1.toPaths)((0, parse_predicate_1.parsePredicate)(raw))));
    return paths;
}
//# sourceMappingURL=predicate-paths.js.map