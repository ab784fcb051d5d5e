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
  /** The exceptions whose use counts are read (exceptions with maxUses). */
  exceptionUses?: string[];
}

/**
 * One use of an exception with maxUses, taken when a run it waived is allowed. Its count is never
 * dropped: an exception's `expires` can be extended at any time, and a count dropped before that
 * would let a used-up exception waive again (docs/approvals.md section 4). A count is one small entry
 * per exception name, and names are reviewed files, so keeping them all stays small.
 */
export interface ExceptionUse {
  name: string;
  maxUses: number;
}

/** All uses taken, or none (another replica took the last one first): the counts then, by exception. */
export type TakeOutcome = { taken: true } | { taken: false; counts: Record<string, number> };

/** What a read returns: the state part of a decision's facts (policy/facts/state-facts.ts). */
export type StateView = StateFacts;

export interface StoreHealth {
  store: 'memory' | 'redis';
  available: boolean;
  message?: string;
  /** What a restart of this replica forgets (or where the state is rebuilt from), said plainly in /readyz. */
  restart?: string;
  /** Where exception use counts (maxUses) are kept, or why they are not, when not in Redis: said in /readyz. */
  exceptionUses?: string;
  /** Why Redis may evict what the store keeps (maxmemory with a policy other than noeviction): said in /readyz. */
  eviction?: string;
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
  /**
   * Takes one use of each exception at once, all or none: none when any of them is used up (its
   * count at maxUses). Throws StateUnavailableError when the store cannot be reached.
   */
  takeExceptionUses(uses: readonly ExceptionUse[], now: Date): Promise<TakeOutcome>;
  health(): StoreHealth;
  close(): Promise<void>;
}

/** How long a run's record (and its end, as a tombstone) is kept: longer than any replay may arrive. */
export function recordRetentionMs(t: StateTiming): number {
  return 2 * Math.max(t.executionTtlMs, t.eventToleranceMs);
}
