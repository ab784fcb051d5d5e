"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RunGuard = exports.NO_PLATFORM = void 0;
const cancel_permission_1 = require("./cancel-permission");
const guard_store_1 = require("./guard-store");
const guard_view_1 = require("./guard-view");
const judge_running_run_1 = require("./judge-running-run");
const judge_without_store_1 = require("./judge-without-store");
const known_runs_1 = require("./known-runs");
const stop_run_1 = require("./stop-run");
const watches_silence_1 = require("./watches-silence");
const silent_signals_1 = require("./silent-signals");
const guard_report_1 = require("./guard-report");
const target_redaction_1 = require("../redaction/target-redaction");
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
exports.NO_PLATFORM = 'STEADYBIT_URL is not set: the guard judges runs in progress and reports what it would stop, but cannot stop anything';
/**
 * Guards allowed runs until they end (docs/guard.md): every interval it judges the guarded part of
 * the policy set again for each run in progress, with fresh facts, and cancels a run that now
 * fails. Off the request path: one tick at a time, yielding between runs.
 */
class RunGuard {
    deps;
    timer;
    ticking;
    view;
    reported = new Set();
    lastTick;
    guardedRuns;
    stops = 0;
    saidCannotStop = false;
    known;
    permission = new cancel_permission_1.CancelPermission();
    constructor(deps) {
        this.deps = deps;
        this.known = deps.known ?? new known_runs_1.KnownRuns();
    }
    start() {
        this.timer ??= setInterval(() => void this.tick(), this.deps.intervalMs);
        this.timer.unref();
    }
    async stop() {
        clearInterval(this.timer);
        this.timer = undefined;
        await this.ticking;
    }
    /**
     * Keeps an allowed run for the guard (after its answer is sent) while the policy set in use has a
     * `whileRunning` policy or a rule that reads the runs in progress (noOverlap): without either
     * nothing is kept (no payload in Redis for nothing). A failure is logged, never thrown.
     */
    keep(decision, payload, now) {
        const id = payload.execution?.id;
        if (!decision.allowed || id === undefined)
            return;
        const bundle = this.deps.policies.current();
        if (!bundle)
            return;
        if (this.viewOf(bundle).policies.length === 0 && !bundle.needs.some((n) => n.kind === 'in-progress'))
            return;
        const run = (0, guard_store_1.guardedRunOf)(id, decision, payload, now);
        const expiresMs = now.getTime() + this.deps.executionTtlMs;
        this.known.add(run);
        this.deps.runs.keep(run, expiresMs, now.getTime()).catch((err) => {
            // Kept by this replica alone until a tick reaches the store again (known-runs.ts).
            this.known.add(run, expiresMs);
            this.deps.logger.error("the guard cannot keep an allowed run in the state store: until it answers, only this replica's own list has it (docs/guard.md)", { executionId: run.executionId, error: String(err) });
        });
    }
    /** One tick (the timer's, or a test's); a tick still running makes this one wait for it instead of overlapping. */
    tick() {
        this.ticking ??= this.runTick().finally(() => {
            this.ticking = undefined;
        });
        return this.ticking;
    }
    viewOf(bundle) {
        if (this.view?.of !== bundle)
            this.view = { of: bundle, view: (0, guard_view_1.guardView)(bundle) };
        return this.view.view;
    }
    async runTick() {
        const started = process.hrtime.bigint();
        this.deps.nextTick?.();
        const bundle = this.deps.policies.current();
        const view = bundle && this.viewOf(bundle);
        const nowMs = this.deps.clock().getTime();
        let runs = [];
        let error;
        await this.known.writeTo(this.deps.runs, this.deps.replica, this.deps.executionTtlMs, nowMs).catch((err) => this.deps.logger.warn('guard: what this replica kept while the state store was away cannot be written yet', {
            error: String(err),
        }));
        try {
            runs = await this.deps.runs.runs(nowMs);
            this.known.refresh(runs);
        }
        catch (err) {
            error = `the runs in progress cannot be read: ${err instanceof Error ? err.message : String(err)}`;
            runs = this.known.inProgress(nowMs, this.deps.executionTtlMs);
            this.deps.logger.warn(`guard: ${error}; the ${runs.length} runs this replica knows are judged from its own list, each policy as its onCannotJudge says`);
        }
        this.guardedRuns = runs.length;
        this.deps.metrics.guardedRuns(runs.length);
        if (view && view.policies.length > 0) {
            for (const run of runs) {
                await (this.deps.yieldTurn ?? nextTurn)();
                await this.guardRun(view, run, error).catch((err) => this.deps.logger.error(`guard: run ${run.executionId} could not be judged again`, {
                    executionId: run.executionId,
                    error: String(err),
                }));
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
    ended(executionId) {
        this.known.ended(executionId);
    }
    /**
     * Judges one run again; a stop is acted on, a finding that stops nothing is reported once per run
     * and policy. `storeAway` (why the state store cannot be read): the run comes from this replica's
     * own list and each policy follows its onCannotJudge, cancelled without the lease.
     */
    async guardRun(view, run, storeAway) {
        const now = this.deps.clock();
        const gathered = await this.deps.gather(view, run.payload, now);
        // A source that cannot answer: the rules that need it cannot judge, and each policy's onCannotJudge decides.
        const { facts, kept } = await this.withSilences(view, run, gathered.ok ? gathered.facts : {}, storeAway);
        let judgement = (0, judge_running_run_1.judgeRunningRun)(view, run.payload, facts, now, this.deps.newId());
        if (gathered.ok && kept)
            await this.keepSilences(run, judgement, kept, now);
        if (!gathered.ok)
            judgement.findings.forEach((f) => {
                if (f.cannotJudge)
                    f.reason = `${f.reason} (${gathered.unavailable.source}: ${gathered.unavailable.message})`;
            });
        if (storeAway)
            judgement = (0, judge_without_store_1.judgeWithoutStore)(view, judgement, storeAway);
        this.report(run, judgement);
        if (!judgement.stop)
            return;
        const outcome = await (0, stop_run_1.stopRun)({ ...this.deps, permission: this.permission }, run, view, judgement, facts, now, storeAway === undefined);
        if (outcome === 'stopped')
            this.stops++;
        if (outcome === 'not_stopped')
            return;
        // Settled: never judged from this replica's own list again (and, the store away, marked stopped there later).
        if (storeAway)
            this.known.settle(run.executionId);
        else
            this.known.ended(run.executionId);
    }
    /**
     * The facts with since when the run's deadMan signals are silent, as the store keeps them (every
     * replica reads the same; `kept`: what was read, absent when nothing could be). The store away,
     * or this read failing: none known, so a silence counts from now and nothing is written
     * (docs/decisions/0024-dead-man-silence-as-signal-facts.md).
     */
    async withSilences(view, run, facts, storeAway) {
        if (!(0, watches_silence_1.watchesSilence)(view))
            return { facts };
        let kept;
        if (!storeAway)
            kept = await this.deps.runs.silences(run.executionId).catch((err) => {
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
    async keepSilences(run, judgement, kept, now) {
        // The same signals silent as kept: nothing to write (a tick over quiet runs writes nothing).
        const fields = new Set(kept.map(silent_signals_1.silentField));
        if (judgement.silent.length === fields.size && judgement.silent.every((s) => fields.has((0, silent_signals_1.silentField)(s))))
            return;
        const expiresMs = Date.parse(run.allowedAt) + this.deps.executionTtlMs;
        const nowMs = now.getTime();
        await this.deps.runs.silenced(run.executionId, judgement.silent, Math.max(expiresMs, nowMs + 1000), nowMs);
    }
    /** Said once per run and policy: what stops nothing (warn/audit, cannot judge), and without the Platform API what would stop. */
    report(run, judgement) {
        for (const f of judgement.findings) {
            if (f.action === 'stop' && this.deps.cancel)
                continue;
            const kind = f.action === 'stop'
                ? 'cannot_stop'
                : f.cannotJudge
                    ? 'cannot_judge'
                    : deadManReport(f)
                        ? 'dead_man'
                        : 'would_stop';
            const key = `${run.executionId}\n${f.policy}\n${kind}`;
            if (this.reported.has(key))
                continue;
            this.reported.add(key);
            this.deps.metrics.reported(f.policy, kind);
            if (kind === 'dead_man')
                this.silentTooLong(run, f, judgement);
            if (kind === 'cannot_stop')
                this.cannotStop(run, f);
            // Target values masked as the audit line, the stop's line and the notifications mask them.
            else
                this.deps.logger.warn(`guard: policy "${f.policy}" ${reportText(run, f)}: ${maskedReason(run, f, this.deps)}`, {
                    executionId: run.executionId,
                    policy: f.policy,
                    kind,
                });
        }
        if (this.reported.size > 10_000)
            this.reported.clear();
    }
    /** Tells the report's subscribers (notifications) of a silent signal the run goes on with, target values masked. */
    silentTooLong(run, f, judgement) {
        try {
            this.deps.onReport?.((0, guard_report_1.guardReportOf)(run, f, judgement, this.deps.audit.redaction));
        }
        catch (err) {
            this.deps.logger.error('guard: a report subscriber failed', { executionId: run.executionId, error: String(err) });
        }
    }
    /** Without STEADYBIT_URL: a warning once per process, then one info line per run and policy (and the metric). */
    cannotStop(run, f) {
        const fields = { executionId: run.executionId, policy: f.policy, kind: 'cannot_stop' };
        const line = `guard: policy "${f.policy}" would stop run ${run.executionId}, but ${exports.NO_PLATFORM}: ${f.reason}`;
        if (this.saidCannotStop)
            return void this.deps.logger.info(line, fields);
        this.saidCannotStop = true;
        this.deps.logger.warn(`${line} (said once; every run it would stop is counted in preflight_guard_reports_total{kind="cannot_stop"})`, fields);
    }
    health() {
        const bundle = this.deps.policies.current();
        const guardedPolicies = bundle ? this.viewOf(bundle).policies.length : 0;
        return {
            guardedPolicies,
            ...(this.deps.cancel ? this.permission.status() : { canStop: false, message: exports.NO_PLATFORM }),
            intervalSeconds: this.deps.intervalMs / 1000,
            ...(this.guardedRuns === undefined ? {} : { guardedRuns: this.guardedRuns }),
            ...(this.lastTick ? { lastTick: this.lastTick } : {}),
            stops: this.stops,
        };
    }
}
exports.RunGuard = RunGuard;
/** An enforce policy that reports instead of stopping: its deadMan says `then: report` (warn/audit ones only report anyway). */
const deadManReport = (f) => f.deadMan === true && f.mode === 'enforce' && f.action === 'report';
function maskedReason(run, f, deps) {
    const text = (0, target_redaction_1.targetRedactor)(run.payload, deps.audit.redaction);
    return text ? text(f.reason) : f.reason;
}
function reportText(run, f) {
    if (f.cannotJudge)
        return `cannot judge run ${run.executionId} while it runs; it goes on (onCannotJudge: report)`;
    if (deadManReport(f))
        return `finds a signal of run ${run.executionId} silent too long; it goes on (deadMan then: report)`;
    return `would stop run ${run.executionId} (mode ${f.mode}: reported only)`;
}
//# sourceMappingURL=run-guard.js.map