import type { Decision, PreflightPayload } from '../policy/core/decision';
import type { SilentSignal } from '../policy/facts/signal-facts';

/** What the gate keeps of an allowed run while it is in progress: enough to judge it again. */
export interface GuardedRun {
  /** Steadybit's execution id (the payload's execution.id), as text. */
  executionId: string;
  /** The id of the decision that allowed it (X-Preflight-Decision-Id). */
  decisionId: string;
  /** When it was allowed, ISO 8601. */
  allowedAt: string;
  /** The revision of the policy set that allowed it. */
  revision: string;
  /** The preflight payload as validated: what the guarded rules are judged on again. */
  payload: PreflightPayload;
}

/** What is kept of a run `decision` allowed at `now` (`id`: the payload's execution id). */
export function guardedRunOf(
  id: string | number,
  decision: Decision,
  payload: PreflightPayload,
  now: Date,
): GuardedRun {
  return {
    executionId: String(id),
    decisionId: decision.id,
    allowedAt: now.toISOString(),
    revision: decision.revision,
    payload,
  };
}

/**
 * Who may cancel a run: `claimed` (this replica holds the lease now), `held` (another replica
 * does, or did within the lease), `stopped` (a replica cancelled it already: never twice).
 */
export type Claim = 'claimed' | 'held' | 'stopped';

/**
 * The runs in progress the guard watches, and the cancel lease: in this process (one replica) or
 * in Redis next to the rest of the state (several replicas share one list and one lease per run,
 * so exactly one replica cancels a run). Every method throws StateUnavailableError when the store
 * cannot be reached.
 */
export interface GuardStore {
  /** Keeps an allowed run until it ends or `expiresMs` passes (EXECUTION_TTL_SECONDS). */
  keep(run: GuardedRun, expiresMs: number, nowMs: number): Promise<void>;
  /**
   * Takes the overlap lock for `lockMs` unless another holder has it (answers false then): while it
   * is held, one preflight (of any replica) reads the runs in progress, decides and keeps its run.
   */
  lockOverlap(token: string, lockMs: number): Promise<boolean>;
  /** Keeps the run as `keep` does, only while `token` still holds the overlap lock (answers false, keeping nothing, if not). */
  keepLocked(run: GuardedRun, expiresMs: number, nowMs: number, token: string): Promise<boolean>;
  /** Gives the overlap lock back, if `token` still holds it. */
  unlockOverlap(token: string): Promise<void>;
  /** The runs kept and not expired at `nowMs`, oldest first. */
  runs(nowMs: number): Promise<GuardedRun[]>;
  /** The execution ids kept and not expired at `nowMs`: one cheap read (no payload), every preflight of a noOverlap rule. */
  ids(nowMs: number): Promise<string[]>;
  /** The kept runs of these ids (one that is gone is left out). */
  fetch(executionIds: readonly string[]): Promise<GuardedRun[]>;
  /** Whether the run is still kept (it has not ended): checked right before a cancel. */
  has(executionId: string, nowMs: number): Promise<boolean>;
  /** Forgets a run: it ended, or it was stopped. */
  forget(executionId: string): Promise<void>;
  /** Takes the cancel lease of a run for `leaseMs` unless another replica holds it or the run was stopped. */
  claim(executionId: string, owner: string, leaseMs: number): Promise<Claim>;
  /** Gives the lease back (the cancel failed: any replica may try again at its next tick). */
  release(executionId: string, owner: string): Promise<void>;
  /** Marks the run stopped for `keepMs`: no replica cancels it again. */
  stopped(executionId: string, owner: string, keepMs: number): Promise<void>;
  /** Since when each signal of the run's deadMan rules has been silent (docs/guard.md, "Dead man"); none: []. */
  silences(executionId: string): Promise<SilentSignal[]>;
  /**
   * What a tick found silent for the run: a signal already kept keeps its `since` (the replica that
   * wrote first wins: every replica reads the same), a new one is kept with its own, one that
   * answers again is dropped; kept until `expiresMs` (the run's: `expiresMs - nowMs` from now, as
   * keep). Answers what is kept now.
   */
  silenced(
    executionId: string,
    silent: readonly SilentSignal[],
    expiresMs: number,
    nowMs: number,
  ): Promise<SilentSignal[]>;
}
