import { randomUUID } from 'node:crypto';
import type { PolicyBundle } from '../policy/core/compiled';
import type { Decision, PreflightPayload } from '../policy/core/decision';
import type { Facts } from '../policy/facts/facts';
import { overlapKeys } from '../state/state-fact-source';
import { StateUnavailableError } from '../state/state-store';
import { guardedRunOf, type GuardStore } from './guard-store';
import type { RunsInProgress } from './runs-in-progress';

export interface SettleOverlapDeps {
  store: GuardStore;
  inProgress: Pick<RunsInProgress, 'sharing'>;
  /** How long a run is kept (EXECUTION_TTL_SECONDS), as the guard keeps it. */
  executionTtlMs: number;
  /** How long one holder may keep the lock: far more than a read, a decision and a write take. */
  lockMs?: number;
  /** How long a preflight waits for the lock before it is denied (503), well inside Steadybit's 55 s. */
  waitMs?: number;
  sleep?: (ms: number) => Promise<void>;
  newToken?: () => string;
}

type Decided = { decision: Decision; facts: Facts };

/**
 * The decision once no other run can have been decided against the same runs in progress; `finish`
 * (the exception uses' settling) runs under the lock, so only a run still allowed after it is kept.
 */
export type SettleOverlap = (
  decided: Decided,
  bundle: PolicyBundle,
  payload: PreflightPayload,
  now: Date,
  redecide: (facts: Facts) => Decision,
  finish: (decided: Decided) => Promise<Decided>,
) => Promise<Decided>;

const LOCK_MS = 5_000;
const WAIT_MS = 10_000;
const RETRY_MS = 5;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs of a set with `noOverlap` rules are allowed one at a time, across replicas: the first decision
 * read the runs in progress without a lock, so two overlapping preflights decided within the same
 * milliseconds could both be allowed. An allowed run is decided again under the guard store's overlap
 * lock, on the runs in progress read afresh, and kept before the lock is given back and before it is
 * answered, so the next one decided sees it (docs/policies.md, noOverlap). A denied run, or one the
 * state's fallback (STATE_UNAVAILABLE=allow) decided without the runs in progress, passes as it is.
 * A lock not had within `waitMs`, lost before the keep, or a store that cannot answer: denied (503).
 */
export function overlapSettler(deps: SettleOverlapDeps): SettleOverlap {
  const lockMs = deps.lockMs ?? LOCK_MS;
  const waitMs = deps.waitMs ?? WAIT_MS;
  const sleep = deps.sleep ?? defaultSleep;
  const newToken = deps.newToken ?? randomUUID;

  const lock = async (token: string): Promise<void> => {
    const until = Date.now() + waitMs;
    for (let wait = RETRY_MS; !(await deps.store.lockOverlap(token, lockMs)); wait = Math.min(wait * 2, 100)) {
      if (Date.now() >= until)
        throw new StateUnavailableError(
          `other runs held the overlap check for ${waitMs / 1000} s (noOverlap decides one run at a time)`,
        );
      await sleep(wait);
    }
  };

  return async (decided, bundle, payload, now, redecide, finish) => {
    const keys = overlapKeys(bundle.needs);
    const id = payload.execution?.id;
    if (
      !decided.decision.allowed ||
      keys === undefined ||
      decided.facts.state?.inProgress === undefined ||
      id === undefined
    )
      return finish(decided);
    const token = newToken();
    await lock(token);
    try {
      const inProgress = await deps.inProgress.sharing(payload, keys, now.getTime());
      const facts: Facts = { ...decided.facts, state: { ...decided.facts.state, inProgress } };
      const settled = await finish({ decision: redecide(facts), facts });
      if (!settled.decision.allowed) return settled;
      const run = guardedRunOf(id, settled.decision, payload, now);
      if (!(await deps.store.keepLocked(run, now.getTime() + deps.executionTtlMs, now.getTime(), token)))
        throw new StateUnavailableError(
          `the overlap check took longer than its lock (${lockMs / 1000} s), so another run may have been decided meanwhile`,
        );
      return settled;
    } finally {
      await deps.store.unlockOverlap(token).catch(() => undefined);
    }
  };
}
