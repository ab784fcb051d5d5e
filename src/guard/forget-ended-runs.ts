import type { Logger } from '../common/logger';
import type { StateStore } from '../state/state-store';
import type { GuardStore } from './guard-store';
import type { KnownRuns } from './known-runs';

/**
 * The state store as events reach it (POST /events and the Platform API sync), with the guard told
 * of every run that ended: it is forgotten, so it is never judged or cancelled again. This
 * replica's own list (`known`) forgets it first, even when the store cannot record the end.
 */
export function forgetEndedRuns(store: StateStore, runs: GuardStore, logger: Logger, known?: KnownRuns): StateStore {
  return {
    kind: store.kind,
    async apply(event, now) {
      if (event.kind === 'execution' && event.phase === 'ended') known?.ended(event.id);
      const outcome = await store.apply(event, now);
      if (event.kind === 'execution' && event.phase === 'ended') {
        await runs.forget(event.id).catch((err: unknown) =>
          logger.warn('guard: an ended run could not be forgotten; it expires with EXECUTION_TTL_SECONDS', {
            executionId: event.id,
            error: String(err),
          }),
        );
      }
      return outcome;
    },
    read: (query, now) => store.read(query, now),
    takeExceptionUses: (uses, now) => store.takeExceptionUses(uses, now),
    health: () => store.health(),
    close: () => store.close(),
  };
}
