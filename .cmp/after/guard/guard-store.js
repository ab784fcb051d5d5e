"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.guardedRunOf = guardedRunOf;
/** What is kept of a run `decision` allowed at `now` (`id`: the payload's execution id). */
function guardedRunOf(id, decision, payload, now) {
    return {
        executionId: String(id),
        decisionId: decision.id,
        allowedAt: now.toISOString(),
        revision: decision.revision,
        payload,
    };
}
//# sourceMappingURL=guard-store.js.map