import type { PolicyStop } from './judge-running-run';

/**
 * A run the guard stopped (cancelled through the Platform API): what `onStop` subscribers get
 * (notifications), what the audit line and the log line say.
 */
export interface GuardStop {
  executionId: string;
  experimentKey?: string;
  team?: string;
  /** The environment as the run sent it (an id or a name). */
  environment?: string;
  /** Its Steadybit name, from the Platform API's environment directory, as a denial names it. */
  environmentName?: string;
  /** Why its name cannot be known (the Platform API has not answered, the id is not listed, ...). */
  environmentNameUnknown?: string;
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

/**
 * A run whose `deadMan` signal has been silent too long, with `then: report`: the run goes on. The
 * same record as a stop (`policy` and `reason` name the signal and since when, target values
 * masked), `stoppedBy` holding the reporting policies; `at` is when it was judged.
 */
export type GuardReport = GuardStop;

/** Called once per run and policy that reports a silent signal (`then: report`); must not throw. */
export type OnReport = (report: GuardReport) => void;
