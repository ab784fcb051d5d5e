import type { PolicyBundle } from '../policy/core/compiled';
import type { Decision, PreflightPayload } from '../policy/core/decision';
import { CancelPermission, type CanStop } from './cancel-permission';
import { guardedRunOf, type GuardedRun } from './guard-store';
import { guardView } from './guard-view';
import { judgeRunningRun, runningFacts, type PolicyStop, type RunJudgement } from './judge-running-run';
import type { KeptOutcomes } from '../policy/engine/kept-outcomes';
import { judgeWithoutStore } from './judge-without-store';
import { KnownRuns } from './known-runs';
import { stopRun } from './stop-run';
import type { RunGuardDeps } from './run-guard-deps';
import type { Facts } from '../policy/facts/facts';
import { watchesSilence } from './watches-silence';
import { silentField } from './silent-signals';
import { guardReportOf } from './guard-report';
import type { SilentSignal } from '../policy/facts/signal-facts';
import type { AttributeRedaction } from '../redaction/attribute-redaction';
import { targetRedactor } from '../redaction/target-redaction';

export type { RunGuardDeps } from './run-guard-deps';

/** What /readyz shows of the guard. */
export interface GuardHealth {
  guardedPolicies: number;
  /** False without STEADYBIT_URL or after a cancel refused for permission; `unknown` until a cancel is answered. */
  canStop: CanStop;
  message?: string;
  refusedTeams?: string[];
  intervalSeconds: number;
  guardedRuns?: number;
  lastTick?: { at: string; durationMs: number; runs: number; error?: string };
  stops: number;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
export const NO_PLATFORM =
  'STEADYBIT_URL is not set: the guard judges runs in progress and reports what it would stop, but cannot stop anything';

/**
 * Guards allowed runs until they end (docs/guard.md): every interval it judges the guarded part of
 * the policy set again for each run in progress, with fresh facts, and cancels a run that now
 * fails. Off the request path: one tick at a time, yielding between runs.
 */
export class RunGuard {
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private view: { of: PolicyBundle; view: PolicyBundle } | undefined;
  private readonly reported = new Set<string>();
  private lastTick: GuardHealth['lastTick'];
  private guardedRuns: number | undefined;
  private stops = 0;
  private saidCannotStop = false;
  private readonly known: KnownRuns;
  private readonly permission = new CancelPermission();
  /**
   * Per run watched: the outcomes of its last judgement that cannot change while its payload, its
   * facts and the policy set stay the same (passes and skips of policies that never read the clock:
   * kept-outcomes.ts), and what they were judged on. Anything else is judged again at every tick;
   * a run gone from the tick's list leaves.
   */
  private readonly outcomes = new Map<
    string,
    { view: PolicyBundle; payload: PreflightPayload; facts: string; kept: KeptOutcomes }
  >();

  constructor(private readonly deps: RunGuardDeps) {
    this.known = deps.known ?? new KnownRuns();
  }

  start(): void {
    this.timer ??= setInterval(() => void this.tick(), this.deps.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
  }

  /**
   * Keeps an allowed run for the guard (after its answer is sent) while the policy set in use has a
   * `whileRunning` policy or a rule that reads the runs in progress (noOverlap): without either
   * nothing is kept (no payload in Redis for nothing). A failure is logged, never thrown.
   */
  keep(decision: Decision, payload: PreflightPayload, now: Date): void {
    const id = payload.execution?.id;
    if (!decision.allowed || id === undefined) return;
    const bundle = this.deps.policies.current();
    if (!bundle) return;
    if (this.viewOf(bundle).policies.length === 0 && !bundle.needs.some((n) => n.kind === 'in-progress')) return;
    const run = guardedRunOf(id, decision, payload, now);
    const expiresMs = now.getTime() + this.deps.executionTtlMs;
    this.known.add(run);
    this.deps.runs.keep(run, expiresMs, now.getTime()).catch((err: unknown) => {
      // Kept by this replica alone until a tick reaches the store again (known-runs.ts).
      this.known.add(run, expiresMs);
      this.deps.logger.error(
        "the guard cannot keep an allowed run in the state store: until it answers, only this replica's own list has it (docs/guard.md)",
        { executionId: run.executionId, error: String(err) },
      );
    });
  }

  /** One tick (the timer's, or a test's); a tick still running makes this one wait for it instead of overlapping. */
  tick(): Promise<void> {
    this.ticking ??= this.runTick().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  private viewOf(bundle: PolicyBundle): PolicyBundle {
    if (this.view?.of !== bundle) this.view = { of: bundle, view: guardView(bundle) };
    return this.view.view;
  }

  private async runTick(): Promise<void> {
    const started = process.hrtime.bigint();
    this.deps.nextTick?.();
    const bundle = this.deps.policies.current();
    const view = bundle && this.viewOf(bundle);
    const nowMs = this.deps.clock().getTime();
    let runs: GuardedRun[] = [];
    let error: string | undefined;
    await this.known.writeTo(this.deps.runs, this.deps.replica, this.deps.executionTtlMs, nowMs).catch((err: unknown) =>
      this.deps.logger.warn('guard: what this replica kept while the state store was away cannot be written yet', {
        error: String(err),
      }),
    );
    try {
      runs = await this.deps.runs.runs(nowMs);
      this.known.refresh(runs);
    } catch (err) {
      error = `the runs in progress cannot be read: ${err instanceof Error ? err.message : String(err)}`;
      runs = this.known.inProgress(nowMs, this.deps.executionTtlMs);
      this.deps.logger.warn(
        `guard: ${error}; the ${runs.length} runs this replica knows are judged from its own list, each policy as its onCannotJudge says`,
      );
    }
    this.guardedRuns = runs.length;
    this.deps.metrics.guardedRuns(runs.length);
    const listed = new Set(runs.map((r) => r.executionId));
    for (const id of this.outcomes.keys()) if (!listed.has(id)) this.outcomes.delete(id);
    if (view && view.policies.length > 0) {
      for (const run of runs) {
        await (this.deps.yieldTurn ?? nextTurn)();
        await this.guardRun(view, run, error).catch((err: unknown) =>
          this.deps.logger.error(`guard: run ${run.executionId} could not be judged again`, {
            executionId: run.executionId,
            error: String(err),
          }),
        );
      }
    }
    const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
    const at = this.deps.clock();
    this.deps.metrics.ticked(durationMs / 1000, at.getTime());
    this.lastTick = {
      at: at.toISOString(),
      durationMs: Math.round(durationMs * 1000) / 1000,
      runs: runs.length,
      ...(error ? { error } : {}),
    };
  }

  /** A run that ended (its end event reached this replica): never judged from this replica's own list again. */
  ended(executionId: string): void {
    this.known.ended(executionId);
  }

  /**
   * Judges one run again; a stop is acted on, a finding that stops nothing is reported once per run
   * and policy. `storeAway` (why the state store cannot be read): the run comes from this replica's
   * own list and each policy follows its onCannotJudge, cancelled without the lease.
   */
  private async guardRun(view: PolicyBundle, run: GuardedRun, storeAway?: string): Promise<void> {
    const now = this.deps.clock();
    const gathered = await this.deps.gather(view, run.payload, now);
    // A source that cannot answer: the rules that need it cannot judge, and each policy's onCannotJudge decides.
    const { facts, kept } = await this.withSilences(view, run, gathered.ok ? gathered.facts : {}, storeAway);
    let judgement = judgeRunningRun(
      view,
      run.payload,
      facts,
      now,
      this.deps.newId(),
      this.keptOutcomes(view, run, facts),
    );
    if (gathered.ok && kept) await this.keepSilences(run, judgement, kept, now);
    if (!gathered.ok)
      judgement.findings.forEach((f) => {
        if (f.cannotJudge) f.reason = `${f.reason} (${gathered.unavailable.source}: ${gathered.unavailable.message})`;
      });
    if (storeAway) judgement = judgeWithoutStore(view, judgement, storeAway);
    this.report(run, judgement);
    if (!judgement.stop) return;
    const outcome = await stopRun(
      { ...this.deps, permission: this.permission },
      run,
      view,
      judgement,
      facts,
      now,
      storeAway === undefined,
    );
    if (outcome === 'stopped') this.stops++;
    if (outcome === 'not_stopped') return;
    // Settled: never judged from this replica's own list again (and, the store away, marked stopped there later).
    if (storeAway) this.known.settle(run.executionId);
    else this.known.ended(run.executionId);
  }

  /** The run's kept outcomes (this.outcomes), new ones when its payload, its facts or the policy set changed since they were kept. */
  private keptOutcomes(view: PolicyBundle, run: GuardedRun, facts: Facts): KeptOutcomes {
    const judgedOn = JSON.stringify(runningFacts(facts));
    const entry = this.outcomes.get(run.executionId);
    if (entry && entry.view === view && entry.payload === run.payload && entry.facts === judgedOn) return entry.kept;
    const kept: KeptOutcomes = new Map();
    this.outcomes.set(run.executionId, { view, payload: run.payload, facts: judgedOn, kept });
    return kept;
  }

  /**
   * The facts with since when the run's deadMan signals are silent, as the store keeps them (every
   * replica reads the same; `kept`: what was read, absent when nothing could be). The store away,
   * or this read failing: none known, so a silence counts from now and nothing is written
   * (docs/decisions/0024-dead-man-silence-as-signal-facts.md).
   */
  private async withSilences(
    view: PolicyBundle,
    run: GuardedRun,
    facts: Facts,
    storeAway?: string,
  ): Promise<{ facts: Facts; kept?: SilentSignal[] }> {
    if (!watchesSilence(view)) return { facts };
    let kept: SilentSignal[] | undefined;
    if (!storeAway)
      kept = await this.deps.runs.silences(run.executionId).catch((err: unknown) => {
        // Judged on: its other rules still stop it; what is kept stays as it is for the next tick.
        this.deps.logger.warn(`guard: since when run ${run.executionId}'s deadMan signals are silent cannot be read`, {
          executionId: run.executionId,
          error: String(err),
        });
        return undefined;
      });
    return { facts: { ...facts, signals: { ...facts.signals, silentSince: kept ?? [] } }, kept };
  }

  /** Keeps what this tick found silent for the run's next tick (a signal that answers again is dropped). */
  private async keepSilences(
    run: GuardedRun,
    judgement: RunJudgement,
    kept: readonly SilentSignal[],
    now: Date,
  ): Promise<void> {
    // The same signals silent as kept: nothing to write (a tick over quiet runs writes nothing).
    const fields = new Set(kept.map(silentField));
    if (judgement.silent.length === fields.size && judgement.silent.every((s) => fields.has(silentField(s)))) return;
    const expiresMs = Date.parse(run.allowedAt) + this.deps.executionTtlMs;
    const nowMs = now.getTime();
    await this.deps.runs.silenced(run.executionId, judgement.silent, Math.max(expiresMs, nowMs + 1000), nowMs);
  }

  /** Said once per run and policy: what stops nothing (warn/audit, cannot judge), and without the Platform API what would stop. */
  private report(run: GuardedRun, judgement: RunJudgement): void {
    for (const f of judgement.findings) {
      if (f.action === 'stop' && this.deps.cancel) continue;
      const kind =
        f.action === 'stop'
          ? 'cannot_stop'
          : f.cannotJudge
            ? 'cannot_judge'
            : deadManReport(f)
              ? 'dead_man'
              : 'would_stop';
      const key = `${run.executionId}\n${f.policy}\n${kind}`;
      if (this.reported.has(key)) continue;
      this.reported.add(key);
      this.deps.metrics.reported(f.policy, kind);
      if (kind === 'dead_man') this.silentTooLong(run, f, judgement);
      if (kind === 'cannot_stop') this.cannotStop(run, f);
      // Target values masked as the audit line, the stop's line and the notifications mask them.
      else
        this.deps.logger.warn(`guard: policy "${f.policy}" ${reportText(run, f)}: ${maskedReason(run, f, this.deps)}`, {
          executionId: run.executionId,
          policy: f.policy,
          kind,
        });
    }
    if (this.reported.size > 10_000) this.reported.clear();
  }

  /** Tells the report's subscribers (notifications) of a silent signal the run goes on with, target values masked. */
  private silentTooLong(run: GuardedRun, f: PolicyStop, judgement: RunJudgement): void {
    try {
      this.deps.onReport?.(guardReportOf(run, f, judgement, this.deps.audit.redaction));
    } catch (err) {
      this.deps.logger.error('guard: a report subscriber failed', { executionId: run.executionId, error: String(err) });
    }
  }

  /** Without STEADYBIT_URL: a warning once per process, then one info line per run and policy (and the metric). */
  private cannotStop(run: GuardedRun, f: PolicyStop): void {
    const fields = { executionId: run.executionId, policy: f.policy, kind: 'cannot_stop' };
    const line = `guard: policy "${f.policy}" would stop run ${run.executionId}, but ${NO_PLATFORM}: ${f.reason}`;
    if (this.saidCannotStop) return void this.deps.logger.info(line, fields);
    this.saidCannotStop = true;
    this.deps.logger.warn(
      `${line} (said once; every run it would stop is counted in preflight_guard_reports_total{kind="cannot_stop"})`,
      fields,
    );
  }

  health(): GuardHealth {
    const bundle = this.deps.policies.current();
    const guardedPolicies = bundle ? this.viewOf(bundle).policies.length : 0;
    return {
      guardedPolicies,
      ...(this.deps.cancel ? this.permission.status() : { canStop: false, message: NO_PLATFORM }),
      intervalSeconds: this.deps.intervalMs / 1000,
      ...(this.guardedRuns === undefined ? {} : { guardedRuns: this.guardedRuns }),
      ...(this.lastTick ? { lastTick: this.lastTick } : {}),
      stops: this.stops,
    };
  }
}

/** An enforce policy that reports instead of stopping: its deadMan says `then: report` (warn/audit ones only report anyway). */
const deadManReport = (f: PolicyStop) => f.deadMan === true && f.mode === 'enforce' && f.action === 'report';

function maskedReason(run: GuardedRun, f: PolicyStop, deps: { audit: { redaction: AttributeRedaction } }): string {
  const text = targetRedactor(run.payload, deps.audit.redaction);
  return text ? text(f.reason) : f.reason;
}

function reportText(run: GuardedRun, f: PolicyStop): string {
  if (f.cannotJudge) return `cannot judge run ${run.executionId} while it runs; it goes on (onCannotJudge: report)`;
  if (deadManReport(f))
    return `finds a signal of run ${run.executionId} silent too long; it goes on (deadMan then: report)`;
  return `would stop run ${run.executionId} (mode ${f.mode}: reported only)`;
}
