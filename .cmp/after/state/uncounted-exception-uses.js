"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.USES_NOT_KEPT = void 0;
exports.withoutExceptionUseCounts = withoutExceptionUseCounts;
const state_store_1 = require("./state-store");
/**
 * Why a gate with in-memory state and no EXCEPTION_USES_FILE does not count exception uses: the
 * count would start again at 0 after a restart, and each replica would keep its own (issue 49:
 * a one-use exception waived two runs). Said in the denial, in /readyz and at start-up.
 */
exports.USES_NOT_KEPT = 'maxUses needs a use count that survives a restart and is shared by every replica, and this service keeps its state in memory only: set REDIS_URL (or REDIS_SENTINELS / REDIS_CLUSTER_NODES) to count uses in Redis, or EXCEPTION_USES_FILE to a file on a persistent volume with one replica (docs/approvals.md#4-maxuses-counted-across-replicas)';
/**
 * The store with its exception use counts withheld: a read answers `exceptionUsesUnknown` instead
 * of counts, so an exception with maxUses does not waive (waiver-blocker.ts) and the denial says
 * what to configure; a take is refused. Everything else is the store's.
 */
function withoutExceptionUseCounts(store, why = exports.USES_NOT_KEPT) {
    return {
        kind: store.kind,
        apply: (event, now) => store.apply(event, now),
        async read(query, now) {
            const view = await store.read(query, now);
            if (query.exceptionUses === undefined)
                return view;
            const { exceptionUses: _withheld, ...rest } = view;
            return { ...rest, exceptionUsesUnknown: why };
        },
        async takeExceptionUses() {
            throw new state_store_1.StateUnavailableError(why);
        },
        health: () => ({
            ...store.health(),
            exceptionUses: `not counted: an exception with maxUses does not waive; ${why}`,
        }),
        close: () => store.close(),
    };
}
//# sourceMappingURL=uncounted-exception-uses.js.map