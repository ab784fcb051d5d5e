import { StateUnavailableError, type StateStore } from './state-store';

/**
 * Why a gate with in-memory state and no EXCEPTION_USES_FILE does not count exception uses: the
 * count would start again at 0 after a restart, and each replica would keep its own (issue 49:
 * a one-use exception waived two runs). Said in the denial, in /readyz and at start-up.
 */
export const USES_NOT_KEPT =
  'maxUses needs a use count that survives a restart and is shared by every replica, and this service keeps its state in memory only: set REDIS_URL (or REDIS_SENTINELS / REDIS_CLUSTER_NODES) to count uses in Redis, or EXCEPTION_USES_FILE to a file on a persistent volume with one replica (docs/approvals.md#4-maxuses-counted-across-replicas)';

/**
 * The store with its exception use counts withheld: a read answers `exceptionUsesUnknown` instead
 * of counts, so an exception with maxUses does not waive (waiver-blocker.ts) and the denial says
 * what to configure; a take is refused. Everything else is the store's.
 */
export function withoutExceptionUseCounts(store: StateStore, why: string = USES_NOT_KEPT): StateStore {
  return {
    kind: store.kind,
    apply: (event, now) => store.apply(event, now),
    async read(query, now) {
      const view = await store.read(query, now);
      if (query.exceptionUses === undefined) return view;
      const { exceptionUses: _withheld, ...rest } = view;
      return { ...rest, exceptionUsesUnknown: why };
    },
    async takeExceptionUses() {
      throw new StateUnavailableError(why);
    },
    health: () => ({
      ...store.health(),
      exceptionUses: `not counted: an exception with maxUses does not waive; ${why}`,
    }),
    close: () => store.close(),
  };
}
