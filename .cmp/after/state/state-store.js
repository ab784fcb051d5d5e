"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.StateUnavailableError = exports.HISTORY_MS = void 0;
exports.recordRetentionMs = recordRetentionMs;
var state_facts_1 = require("../policy/facts/state-facts");
Object.defineProperty(exports, "HISTORY_MS", { enumerable: true, get: function () { return state_facts_1.HISTORY_MS; } });
/** The store is unreachable or failed: the caller decides (deny by default). */
class StateUnavailableError extends Error {
    constructor(message) {
        super(message);
        this.name = 'StateUnavailableError';
    }
}
exports.StateUnavailableError = StateUnavailableError;
/** How long a run's record (and its end, as a tombstone) is kept: longer than any replay may arrive. */
function recordRetentionMs(t) {
    return 2 * Math.max(t.executionTtlMs, t.eventToleranceMs);
}
//# sourceMappingURL=state-store.js.map