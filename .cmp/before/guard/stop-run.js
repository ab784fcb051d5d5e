"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.stopRun = stopRun;
const target_redaction_1 = require("../redaction/target-redaction");
const cancel_permission_1 = require("./cancel-permission");
const guard_report_1 = require("./guard-report");
const stop_audit_record_1 = require("./stop-audit-record");
function stopOf(run, judgement, now, named) {
    const stoppedBy = judgement.findings.filter((f) => f.action === 'stop');
    const [first] = stoppedBy;
    return (0, guard_report_1.guardRecord)(run, judgement, { policy: first.policy, reason: first.reason, stoppedBy, at: now.toISOString() }, named);
}
/**
 * The Steadybit name of the run's environment, as a denial gives it: from the facts the judgement
 * read when its policies needed the names, else from the Platform API's directory the preflights
 * read (a stop is only made through the Platform API); why it cannot be known, when it cannot.
 */
async function environmentNameOf(deps, environment, facts) {
    if (environment === undefined || environment === '')
        return {};
    const read = facts.environments?.[environment];
    if (read !== undefined)
        return 'name' in read ? { environmentName: read.name } : { environmentNameUnknown: read.unknown };
    if (!deps.environments)
        return {};
    try {
        const answer = (await deps.environments.resolve([environment])).get(environment);
        if (answer === undefined)
            return {};
        return answer.known ? { environmentName: answer.name } : { environmentNameUnknown: answer.reason };
    }
    catch (err) {
        return {
            environmentNameUnknown: `the environment names could not be read (${err instanceof Error ? err.message : String(err)})`,
        };
    }
}
function failed(deps, run, reason, message) {
    deps.metrics.cancelFailed(reason);
    deps.logger.error(`guard: run ${run.executionId} must be stopped but the cancel failed (${message}); it is tried again at the next tick`, { executionId: run.executionId, reason });
}
/** Said once per team, when its runs can no longer be stopped; the failed cancel itself is logged each time. */
function noteRefusal(deps, run, team, answer, now) {
    if (!deps.permission.refused(team, run.executionId, answer, now))
        return;
    deps.logger.warn(`guard: the token may not cancel ${(0, cancel_permission_1.runsOfTeam)(team)}: those that must stop go on; /readyz shows guard.canStop false until a cancel of that team's runs succeeds (use a team token of that team or an admin token: docs/guard.md)`, { executionId: run.executionId, team });
}
/**
 * Cancels a run its guarded policies no longer allow, exactly once: under the run's lease in the
 * shared store (one replica at a time; a replica that dies lets the lease run out), only while the
 * run is still kept (an ended run is forgotten, never cancelled), and marked stopped after, so no
 * replica cancels it twice. A failed cancel gives the lease back for the next tick.
 * `leased: false` (the state store is away: judge-without-store.ts) cancels without the lease and
 * writes nothing to the store; the caller remembers the outcome (known-runs.ts).
 */
async function stopRun(deps, run, view, judgement, facts, now, leased = true) {
    const id = run.executionId;
    if (!deps.cancel)
        return 'not_stopped'; // the guard reports what it would stop instead (run-guard.ts)
    const started = process.hrtime.bigint();
    try {
        if (leased && !(await claimed(deps, id)))
            return 'not_stopped';
    }
    catch (err) {
        failed(deps, run, 'state_unavailable', `the state store cannot be reached: ${err instanceof Error ? err.message : String(err)}`);
        return 'not_stopped';
    }
    // Within half the lease: the lease cannot run out while this replica still waits for the answer.
    const answer = await deps.cancel(id, deps.leaseMs / 2);
    const team = run.payload.execution?.teamKey;
    if (!answer.ok) {
        if (leased)
            await deps.runs.release(id, deps.replica).catch(() => undefined); // the lease runs out by itself
        const refused = answer.failure.outcome === 'unauthorized';
        if (refused)
            noteRefusal(deps, run, team, answer.failure.message, now);
        const hint = refused
            ? ` (the token may not cancel ${(0, cancel_permission_1.runsOfTeam)(team)}: a team token of that team or an admin token may; /readyz shows guard.canStop false: docs/guard.md)`
            : '';
        failed(deps, run, answer.failure.outcome, `${answer.failure.message}${hint}`);
        return 'not_stopped';
    }
    // A 404 tells nothing of the permission: the platform may not look at the token's teams for a run it does not know.
    if (answer.outcome !== 'not-found' && deps.permission.allowed(team))
        deps.logger.info(`guard: the token may cancel ${(0, cancel_permission_1.runsOfTeam)(team)} again (the Platform API answered a cancel without refusal): /readyz guard.canStop no longer says otherwise`, { executionId: id, team });
    if (leased)
        await settledInStore(deps, id);
    if (answer.outcome !== 'accepted') {
        deps.logger.info(`guard: run ${id} had already ended (the Platform API answered ${answer.outcome === 'ended' ? '200: already canceled, errored or completed' : '404: not found'}); nothing to stop`, { executionId: id });
        return 'ended';
    }
    const stop = stopOf(run, judgement, now, await environmentNameOf(deps, run.payload.execution?.environment, facts));
    record(deps, stop, run, view, judgement, facts, now, Number(process.hrtime.bigint() - started) / 1e6);
    return 'stopped';
}
/** Takes the run's lease, then checks it is still kept (it has not ended); a run that ended gives the lease back. */
async function claimed(deps, id) {
    if ((await deps.runs.claim(id, deps.replica, deps.leaseMs)) !== 'claimed')
        return false;
    if (await deps.runs.has(id, deps.clock().getTime()))
        return true;
    await deps.runs.release(id, deps.replica);
    return false;
}
/** No replica cancels the run again, and it is no longer watched. */
async function settledInStore(deps, id) {
    try {
        await deps.runs.stopped(id, deps.replica, deps.executionTtlMs);
        await deps.runs.forget(id);
    }
    catch (err) {
        deps.logger.error(`guard: run ${id} was cancelled but the state store could not record it`, {
            executionId: id,
            error: String(err),
        });
    }
}
function record(deps, stop, run, view, judgement, facts, now, durationMs) {
    deps.metrics.stopped(stop.policy);
    // The log line and the stop's subscribers (notifications) see target values masked as the audit log does.
    const text = (0, target_redaction_1.targetRedactor)(run.payload, deps.audit.redaction) ?? ((t) => t);
    const said = {
        ...stop,
        reason: text(stop.reason),
        stoppedBy: stop.stoppedBy.map((p) => ({ ...p, reason: text(p.reason) })),
    };
    deps.logger.warn(`guard: stopped run ${said.executionId} (${said.experimentKey ?? 'experiment unknown'}, environment ${said.environment ?? 'unknown'}): policy "${said.policy}" no longer holds: ${said.reason}`, {
        executionId: said.executionId,
        policy: said.policy,
        decisionId: said.decisionId,
        allowedBy: said.allowedBy,
    });
    if (deps.audit.accepts('warn'))
        deps.audit.write((0, stop_audit_record_1.stopAuditRecord)(stop, judgement, run.payload, 202, durationMs, deps.audit.redaction));
    deps.archive?.record({
        decision: judgement.decision,
        bundle: view,
        payload: run.payload,
        now,
        needs: view.needs,
        facts,
        explain: false,
        whileRunning: true,
    });
    try {
        deps.onStop?.(said);
    }
    catch (err) {
        deps.logger.error('guard: a stop subscriber failed', { executionId: said.executionId, error: String(err) });
    }
}
//# sourceMappingURL=stop-run.js.map