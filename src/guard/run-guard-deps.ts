import type { PolicyBundle } from '../policy/core/compiled';
import type { Gathered } from '../policy/core/fact-source';
import type { PreflightPayload } from '../policy/core/decision';
import type { Logger } from '../common/logger';
import type { AuditLog } from '../observability/audit-log';
import type { DecisionArchive } from '../archive/decision-archive';
import type { CancelOutcome } from '../platform/cancel-execution';
import type { EnvironmentDirectory } from '../platform/environment-directory';
import type { GuardMetrics } from './guard-metrics';
import type { GuardStore } from './guard-store';
import type { OnReport, OnStop } from './guard-stop';
import type { KnownRuns } from './known-runs';

/** What the guard of runs in progress is built from (run-guard.ts): passed in, never global. */
export interface RunGuardDeps {
  /** The policy set in use (with the built-in policies): its guarded part is judged at each tick. */
  policies: { current(): PolicyBundle | undefined };
  runs: GuardStore;
  /** Facts for the guarded rules, from the service's sources (a factGatherer over them, as a preflight's). */
  gather(bundle: PolicyBundle, payload: PreflightPayload, now: Date): Promise<Gathered>;
  /**
   * Called as each tick starts: what `gather` read for the last tick is not used again, so the live
   * signals are read fresh once per tick, shared by its runs (build-service.ts: ServiceFactSources.nextTick).
   */
  nextTick?: () => void;
  /** Cancels an execution through the Platform API within `withinMs`; absent without STEADYBIT_URL (nothing can be stopped). */
  cancel?: (executionId: string, withinMs: number) => Promise<CancelOutcome>;
  /** The Platform API's environment names (the directory preflights read): a stop names the run's environment as Steadybit does. */
  environments?: Pick<EnvironmentDirectory, 'resolve'>;
  logger: Logger;
  metrics: GuardMetrics;
  audit: AuditLog;
  archive?: DecisionArchive;
  clock: () => Date;
  newId: () => string;
  /** This replica's name in the cancel lease (hostname and pid). */
  replica: string;
  intervalMs: number;
  /** How long a replica holds a run's cancel lease; a replica killed mid-cancel lets another take over after it. */
  leaseMs: number;
  /** EXECUTION_TTL_SECONDS: how long a run is watched at most, and a stop remembered. */
  executionTtlMs: number;
  onStop?: OnStop;
  /** A deadMan signal silent too long with `then: report` (notifications): once per run and policy. */
  onReport?: OnReport;
  /** This replica's own list of the runs in progress (judged from it while the store is away); one per replica. */
  known?: KnownRuns;
  /** Lets other work (preflights) run between two runs of a tick. */
  yieldTurn?: () => Promise<void>;
}
