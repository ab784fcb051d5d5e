"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.applyStateEvent = applyStateEvent;
const state_store_1 = require("./state-store");
/**
 * Applies one custom-webhook event to the store. An unreachable store is an expected outcome, so
 * it is returned (`unavailable`), never thrown; anything else thrown is a bug and propagates.
 */
async function applyStateEvent(store, event, now) {
    try {
        return { kind: 'done', outcome: await store.apply(event, now) };
    }
    catch (err) {
        if (err instanceof state_store_1.StateUnavailableError)
            return { kind: 'unavailable', message: err.message };
        throw err;
    }
}
//# sourceMappingURL=apply-state-event.js.map