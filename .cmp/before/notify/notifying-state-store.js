"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.notifyingStateStore = notifyingStateStore;
const event_notifications_1 = require("./event-notifications");
/**
 * The state store, telling the notifier when an emergency stop change is applied: from POST
 * /events or from the Platform API sync alike. Only the replica whose update applied tells (with
 * Redis the others get `duplicate` or `stale`), so a change is told once, not once per replica.
 */
function notifyingStateStore(store, notifier) {
    return {
        kind: store.kind,
        async apply(event, now) {
            const outcome = await store.apply(event, now);
            if (outcome === 'applied' && event.kind === 'killswitch')
                notifier.notify((0, event_notifications_1.emergencyStopNotification)(event, now));
            return outcome;
        },
        read: (query, now) => store.read(query, now),
        takeExceptionUses: (uses, now) => store.takeExceptionUses(uses, now),
        health: () => store.health(),
        close: () => store.close(),
    };
}
//# sourceMappingURL=notifying-state-store.js.map