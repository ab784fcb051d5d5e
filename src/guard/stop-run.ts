import { targetRedactor } from '../redaction/target-redaction';
import type { PolicyBundle } from '../policy/core/compiled';
import type { Facts } from '../policy/facts/facts';
import { type CancelPermission, runsOfTeam } from './cancel-permission';
import type { CancelFailure } from './guard-metrics';
import { guardRecord, type NamedEnvironment } from './guard-report';
import type { GuardedRun } from './guard-store';
import type { GuardStop } from './guard-stop';
import type { RunJudgement } from './judge-running-run';
import type { RunGuardDeps } from './run-guard-deps';
import { stopAuditRecord } from './stop-audit-record';

type StopDeps = Omit<RunGuardDeps, 'policies' | 'gather' | 'intervalMs' | 'yieldTurn' | 'known'> & {
  /** What the cancel answers taught about the token (cancel-permission.ts): told of every answer. */
  permission: CancelPermission;
};

function stopOf(run: GuardedRun, judgement: RunJudgement, now: Date, named: NamedEnvironment): GuardStop {
  const stoppedBy = judgement.findings.filter((f) => f.action === 'stop');
  const [first] = stoppedBy;
  return guardRecord(
    run,
    judgement,
    { policy: first.policy, reason: first.reason, stoppedBy, at: now.toISOString() },
    named,
  );
}

/**
 * The Steadybit name of the run's environment, as a denial gives it: from the facts the judgement
 * read when its policies needed the names, else from the Platform API's directory the preflights
 * read (a stop is only made through the Platform API); why it cannot be known, when it cannot.
 */
async function environmentNameOf(
  deps: StopDeps,
  environment: string | undefined,
  facts: Facts,
): Promise<NamedEnvironment> {
  if (environment === undefined || environment === '') return {};
  const read = facts.environments?.[environment];
  if (read !== undefined)
    return 'name' in read ? { environmentName: read.name } : { environmentNameUnknown: read.unknown };
  if (!deps.environments) return {};
  try {
    const answer = (await deps.environments.resolve([environment])).get(environment);
    if (answer === undefined) return {};
    return answer.known ? { environmentName: answer.name } : { environmentNameUnknown: answer.reason };
  } catch (err) {
    return {
      environmentNameUnknown: `the environment names could not be read (${err instanceof Error ? err.message : String(err)})`,
    };
  }
}

function failed(deps: StopDeps, run: GuardedRun, reason: CancelFailure, message: string): void {
  deps.metrics.cancelFailed(reason);
  deps.logger.error(
    `guard: run ${run.executionId} must be stopped but the cancel failed (${message}); it is tried again at the next tick`,
    { executionId: run.executionId, reason },
  );
}

/** Said once per team, when its runs can no longer be stopped; the failed cancel itself is logged each time. */
function noteRefusal(deps: StopDeps, run: GuardedRun, team: string | undefined, answer: string, now: Date): void {
  if (!deps.permission.refused(team, run.executionId, answer, now)) return;
  deps.logger.warn(
    `guard: the token may not cancel ${runsOfTeam(team)}: those that must stop go on; /readyz shows guard.canStop false until a cancel of that team's runs succeeds (use a team token of that team or an admin token: docs/guard.md)`,
    { executionId: run.executionId, team },
  );
}

/** What a stop came to: `stopped` (cancelled now), `ended` (the Platform API says it had ended), or neither (tried again). */
export type StopOutcome = 'stopped' | 'ended' | 'not_stopped';

/**
 * Cancels a run its guarded policies no longer allow, exactly once: under the run's lease in the
 * shared store (one replica at a time; a replica that dies lets the lease run out), only while the
 * run is still kept (an ended run is forgotten, never cancelled), and marked stopped after, so no
 * replica cancels it twice. A failed cancel gives the lease back for the next tick.
 * `leased: false` (the state store is away: judge-without-store.ts) cancels without the lease and
 * writes nothing to the store; the caller remembers the outcome (known-runs.ts).
 */
export async function stopRun(
  deps: StopDeps,
  run: GuardedRun,
  view: PolicyBundle,
  judgement: RunJudgement,
  facts: Facts,
  now: Date,
  leased = true,
): Promise<StopOutcome> {
  const id = run.executionId;
  if (!deps.cancel) return 'not_stopped'; // the guard reports what it would stop instead (run-guard.ts)
  const started = process.hrtime.bigint();
  try {
    if (leased && !(await claimed(deps, id))) return 'not_stopped';
  } catch (err) {
    failed(
      deps,
      run,
      'state_unavailable',
      `the state store cannot be reached: ${err instanceof Error ? err.message : String(err)}`,
    );
    return 'not_stopped';
  }
  // Within half the lease: the lease cannot run out while this replica still waits for the answer.
  const answer = await deps.cancel(id, deps.leaseMs / 2);
  const team = run.payload.execution?.teamKey;
  if (!answer.ok) {
    if (leased) await deps.runs.release(id, deps.replica).catch(() => undefined); // the lease runs out by itself
    const refused = answer.failure.outcome === 'unauthorized';
    if (refused) noteRefusal(deps, run, team, answer.failure.message, now);
    const hint = refused
      ? ` (the token may not cancel ${runsOfTeam(team)}: a team token of that team or an admin token may; /readyz shows guard.canStop false: docs/guard.md)`
      : '';
    failed(deps, run, answer.failure.outcome, `${answer.failure.message}${hint}`);
    return 'not_stopped';
  }
  // A 404 tells nothing of the permission: the platform may not look at the token's teams for a run it does not know.
  if (answer.outcome !== 'not-found' && deps.permission.allowed(team))
    deps.logger.info(
      `guard: the token may cancel ${runsOfTeam(team)} again (the Platform API answered a cancel without refusal): /readyz guard.canStop no longer says otherwise`,
      { executionId: id, team },
    );
  if (leased) await settledInStore(deps, id);
  if (answer.outcome !== 'accepted') {
    deps.logger.info(
      `guard: run ${id} had already ended (the Platform API answered ${answer.outcome === 'ended' ? '200: already canceled, errored or completed' : '404: not found'}); nothing to stop`,
      { executionId: id },
    );
    return 'ended';
  }
  const stop = stopOf(run, judgement, now, await environmentNameOf(deps, run.payload.execution?.environment, facts));
  record(deps, stop, run, view, judgement, facts, now, Number(process.hrtime.bigint() - started) / 1e6);
  return 'stopped';
}

/** Takes the run's lease, then checks it is still kept (it has not ended); a run that ended gives the lease back. */
async function claimed(deps: StopDeps, id: string): Promise<boolean> {
  if ((await deps.runs.claim(id, deps.replica, deps.leaseMs)) !== 'claimed') return false;
  if (await deps.runs.has(id, deps.clock().getTime())) return true;
  await deps.runs.release(id, deps.replica);
  return false;
}

/** No replica cancels the run again, and it is no longer watched. */
async function settledInStore(deps: StopDeps, id: string): Promise<void> {
  try {
    await deps.runs.stopped(id, deps.replica, deps.executionTtlMs);
    await deps.runs.forget(id);
  } catch (err) {
    deps.logger.error(`guard: run ${id} was cancelled but the state store could not record it`, {
      executionId: id,
      error: String(err),
    });
  }
}

function record(
  deps: StopDeps,
  stop: GuardStop,
  run: GuardedRun,
  view: PolicyBundle,
  judgement: RunJudgement,
  facts: Facts,
  now: Date,
  durationMs: number,
): void {
  deps.metrics.stopped(stop.policy);
  // The log line and the stop's subscribers (notifications) see target values masked as the audit log does.
  const text = targetRedactor(run.payload, deps.audit.redaction) ?? ((t: string) => t);
  const said: GuardStop = {
    ...stop,
    reason: text(stop.reason),
    stoppedBy: stop.stoppedBy.map((p) => ({ ...p, reason: text(p.reason) })),
  };
  deps.logger.warn(
    `guard: stopped run ${said.executionId} (${said.experimentKey ?? 'experiment unknown'}, environment ${said.environment ?? 'unknown'}): policy "${said.policy}" no longer holds: ${said.reason}`,
    {
      executionId: said.executionId,
      policy: said.policy,
      decisionId: said.decisionId,
      allowedBy: said.allowedBy,
    },
  );
  if (deps.audit.accepts('warn'))
    deps.audit.write(stopAuditRecord(stop, judgement, run.payload, 202, durationMs, deps.audit.redaction));
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
  } catch (err) {
    deps.logger.error('guard: a stop subscriber failed', { executionId: said.executionId, error: String(err) });
  }
}
