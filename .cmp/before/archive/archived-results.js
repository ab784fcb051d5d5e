"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.archivedResults = archivedResults;
function archivedResults(results) {
    // `signals` (what signal rules read) is left out: the archived facts hold the answers, and replay
    // of a line written before results had it must not call that a change.
    // A pass is built from its three fields, not copied first (most results of a decision are passes).
    return results.map((r) => {
        if (r.result === 'pass')
            return { policy: r.policy, mode: r.mode, result: r.result };
        const { source: _source, signals: _signals, ...rest } = r;
        return rest;
    });
}
//# sourceMappingURL=archived-results.js.map