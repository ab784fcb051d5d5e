"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Memo = void 0;
exports.memoKey = memoKey;
/**
 * How many keys the process has declared: a key is a module's constant, so this stays small. One
 * counter for every key assumes this module is loaded once (one bundle, no module registry reset);
 * keys of two copies could share an index.
 */
let declared = 0;
function memoKey(name) {
    return Object.freeze({ name, index: declared++ });
}
/** What an entry built as `undefined` holds, so it is not built again. */
const BUILT_UNDEFINED = Symbol('built: undefined');
/**
 * What the parts of one decision share, each entry built by the first part that needs it and
 * dropped with the decision's EvaluationContext. Memos of per-request objects live here, not in
 * WeakMaps keyed by the request's objects (docs/decisions/0004-per-evaluation-context.md).
 */
class Memo {
    /** Entries by key index: read by position, no hashing (docs/decisions/0004-per-evaluation-context.md). */
    entries = [];
    /** The entry under `key`, built by `build` the first time it is asked for in this decision. */
    get(key, build) {
        const kept = this.entries[key.index];
        if (kept !== undefined)
            return (kept === BUILT_UNDEFINED ? undefined : kept);
        const value = build();
        this.entries[key.index] = value === undefined ? BUILT_UNDEFINED : value;
        return value;
    }
    /** The entry under `key` if a part built it (tests and explanations); never builds it. */
    peek(key) {
        const kept = this.entries[key.index];
        return (kept === BUILT_UNDEFINED ? undefined : kept);
    }
}
exports.Memo = Memo;
//# sourceMappingURL=memo.js.map