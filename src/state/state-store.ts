import type { StateFacts } from '../policy/facts/state-facts';
import type { StateEvent } from './state-event';

export { HISTORY_MS, type EmergencyStopState, type RunRef, type RunsByScope } from '../policy/facts/state-facts';

/**
 * What applying an event did. Only `applied` changed anything. `unmatched`: a disengagement that
 * does not name the engagement in force (killswitch-state.ts), ignored so it cannot unlock the stop.
 */
export type ApplyOutcome = 'applied' | 'duplicate' | 'stale' | 'unmatched';

/** What a preflight needs to read; one round trip. */
export interface StateQuery {
  emergencyStop: boolean;
  scopes: readonly string[];
  running: boolean;
  /** Ended runs since this time (cool-downs). */
  endedSinceMs?: number;
  /** Started runs since this time (quotas). */
  startedSinceMs?: number;
}

/** What a read returns: the state part of a decision's facts (policy/facts/state-facts.ts). */
export type StateView = StateFacts;

export interface StoreHealth {
  store: 'memory' | 'redis';
  available: boolean;
  message?: string;
  /** What a restart of this replica forgets (or where the state is rebuilt from), said plainly in /readyz. */
  restart?: string;
}

/** How long state is kept. */
export interface StateTiming {
  /** A run that never reports its end stops counting as running after this. */
  executionTtlMs: number;
  /** Events older (or further in the future) than this are ignored; duplicates are remembered this long, twice over. */
  eventToleranceMs: number;
}


/** The store is unreachable or failed: the caller decides (deny by default). */
export class StateUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateUnavailableError';
  }
}

/** The state kept from Steadybit's custom webhooks: in memory (one replica) or in Redis (several). */
export interface StateStore {
  readonly kind: StoreHealth['store'];
  /** Applies one event atomically. Throws StateUnavailableError when the store cannot be reached. */
  apply(event: StateEvent, now: Date): Promise<ApplyOutcome>;
  /** Reads what a preflight needs. Throws StateUnavailableError when the store cannot be reached. */
  read(query: StateQuery, now: Date): Promise<StateView>;
  health(): StoreHealth;
  close(): Promise<void>;
}

/** How long a run's record (and its end, as a tombstone) is kept: longer than any replay may arrive. */
export function recordRetentionMs(t: StateTiming): number {
  return 2 * Math.max(t.executionTtlMs, t.eventToleranceMs);
}
