import type { PolicyBundle } from '../policy/core/compiled';
import type { Decision, PreflightPayload } from '../policy/core/decision';
import type { GuardedRun } from './guard-store';
import { guardView } from './guard-view';
import { judgeRunningRun, type RunJudgement } from './judge-running-run';
import { stopRun } from './stop-run';
import type { RunGuardDeps } from './run-guard-deps';

export type { RunGuardDeps } from './run-guard-deps';

/** What /readyz shows of the guard. */
export interface GuardHealth {
  guardedPolicies: number;
  canStop: boolean;
  message?: string;
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

  constructor(private readonly deps: RunGuardDeps) {}

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
   * `whileRunning` policy: without one nothing is kept (no payload in Redis for nothing). A failure is
   * logged, never thrown.
   */
  keep(decision: Decision, payload: PreflightPayload, now: Date): void {
    const id = payload.execution?.id;
    if (!decision.allowed || id === undefined) return;
    const bundle = this.deps.policies.current();
    if (!bundle || this.viewOf(bundle).policies.length === 0) return;
    const run: GuardedRun = {
      executionId: String(id),
      decisionId: decision.id,
      allowedAt: now.toISOString(),
      revision: decision.revision,
      payload,
    };
    this.deps.runs.keep(run, now.getTime() + this.deps.executionTtlMs, now.getTime()).catch((err: unknown) => {
      this.deps.logger.error(
        'the guard cannot keep an allowed run: it will not be stopped if its policies stop holding',
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
    const bundle = this.deps.policies.current();
    let runs: GuardedRun[] = [];
    let error: string | undefined;
    try {
      runs = await this.deps.runs.runs(this.deps.clock().getTime());
      this.guardedRuns = runs.length;
      this.deps.metrics.guardedRuns(runs.length);
      const view = bundle && this.viewOf(bundle);
      if (view && view.policies.length > 0) {
        for (const run of runs) {
          await (this.deps.yieldTurn ?? nextTurn)();
          await this.guardRun(view, run);
        }
      }
    } catch (err) {
      error = `the runs in progress cannot be read: ${err instanceof Error ? err.message : String(err)}`;
      this.deps.logger.warn(`guard: ${error}; no run is judged until the state store answers`);
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

  /** Judges one run again; a stop is acted on, a finding that stops nothing is reported once per run and policy. */
  private async guardRun(view: PolicyBundle, run: GuardedRun): Promise<void> {
    const now = this.deps.clock();
    const gathered = await this.deps.gather(view, run.payload, now);
    // A source that cannot answer: the rules that need it cannot judge, and each policy's onCannotJudge decides.
    const facts = gathered.ok ? gathered.facts : {};
    const judgement = judgeRunningRun(view, run.payload, facts, now, this.deps.newId());
    if (!gathered.ok)
      judgement.findings.forEach((f) => {
        if (f.cannotJudge) f.reason = `${f.reason} (${gathered.unavailable.source}: ${gathered.unavailable.message})`;
      });
    this.report(run, judgement);
    if (!judgement.stop) return;
    const stopped = await stopRun(this.deps, run, view, judgement, facts, now);
    if (stopped) this.stops++;
  }

  private report(run: GuardedRun, judgement: RunJudgement): void {
    for (const f of judgement.findings) {
      if (f.action === 'stop') continue;
      const key = `${run.executionId}\n${f.policy}\n${f.cannotJudge}`;
      if (this.reported.has(key)) continue;
      this.reported.add(key);
      const kind = f.cannotJudge ? 'cannot_judge' : 'would_stop';
      this.deps.metrics.reported(f.policy, kind);
      const what = f.cannotJudge
        ? `cannot judge run ${run.executionId} while it runs; it goes on (onCannotJudge: report)`
        : `would stop run ${run.executionId} (mode ${f.mode}: reported only)`;
      this.deps.logger.warn(`guard: policy "${f.policy}" ${what}: ${f.reason}`, {
        executionId: run.executionId,
        policy: f.policy,
        kind,
      });
    }
    if (this.reported.size > 10_000) this.reported.clear();
  }

  health(): GuardHealth {
    const bundle = this.deps.policies.current();
    const guardedPolicies = bundle ? this.viewOf(bundle).policies.length : 0;
    return {
      guardedPolicies,
      canStop: this.deps.cancel !== undefined,
      ...(this.deps.cancel ? {} : { message: NO_PLATFORM }),
      intervalSeconds: this.deps.intervalMs / 1000,
      ...(this.guardedRuns === undefined ? {} : { guardedRuns: this.guardedRuns }),
      ...(this.lastTick ? { lastTick: this.lastTick } : {}),
      stops: this.stops,
    };
  }
}
