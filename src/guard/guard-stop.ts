import type { PolicyStop } from './judge-running-run';

/**
 * A run the guard stopped (cancelled through the Platform API): what `onStop` subscribers get
 * (notifications), what the audit line and the log line say.
 */
export interface GuardStop {
  executionId: string;
  experimentKey?: string;
  team?: string;
  environment?: string;
  /** The policy that stopped it (the first, by priority), and every policy that would have. */
  policy: string;
  reason: string;
  stoppedBy: PolicyStop[];
  /** The re-judgement's decision id, and the id of the decision that had allowed the run. */
  decisionId: string;
  allowedBy: string;
  /** When it was judged and the cancel was accepted, ISO 8601. */
  at: string;
  revision: string;
}

/** Called once per stop, after the cancel was accepted; must not throw (a throw is logged and ignored). */
export type OnStop = (stop: GuardStop) => void;
