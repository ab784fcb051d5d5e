"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.forgetEndedRuns = forgetEndedRuns;
/**
 * The state store as events reach it (POST /events and the Platform API sync), with the guard told
 * of every run that ended: it is forgotten, so it is never judged or cancelled again. This
 * replica's own list (`known`) forgets it first, even when the store cannot record the end.
 */
function forgetEndedRuns(store, runs, logger, known) {
    return {
        kind: store.kind,
        async apply(event, now) {
            if (event.kind === 'execution' && event.phase === 'ended')
                known?.ended(event.id);
            const outcome = await store.apply(event, now);
            if (event.kind === 'execution' && event.phase === 'ended') {
                await runs.forget(event.id).catch((err) => logger.warn('guard: an ended run could not be forgotten; it expires with EXECUTION_TTL_SECONDS', {
                    executionId: event.id,
                    error: String(err),
                }));
            }
            return outcome;
        },
        read: (query, now) => store.read(query, now),
        takeExceptionUses: (uses, now) => store.takeExceptionUses(uses, now),
        health: () => store.health(),
        close: () => store.close(),
    };
}
//# sourceMappingURL=forget-ended-runs.js.map