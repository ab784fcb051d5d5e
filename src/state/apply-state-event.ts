import type { StateEvent } from './state-event';
import { StateUnavailableError, type ApplyOutcome, type StateStore } from './state-store';

/** The store could not be reached or failed: a value the HTTP layer maps to its status (error-handler.ts). */
export interface StateUnavailable {
  kind: 'unavailable';
  /** What failed, e.g. `Redis (standalone redis:6379) is not connected (reconnecting)`. */
  message: string;
}

export type ApplyResult = { kind: 'done'; outcome: ApplyOutcome } | StateUnavailable;

/**
 * Applies one custom-webhook event to the store. An unreachable store is an expected outcome, so
 * it is returned (`unavailable`), never thrown; anything else thrown is a bug and propagates.
 */
export async function applyStateEvent(store: StateStore, event: StateEvent, now: Date): Promise<ApplyResult> {
  try {
    return { kind: 'done', outcome: await store.apply(event, now) };
  } catch (err) {
    if (err instanceof StateUnavailableError) return { kind: 'unavailable', message: err.message };
    throw err;
  }
}
