import type { EvaluationContext } from '../core/evaluation-context';
import { scopeKey, type RunRef, type ScopeKind } from '../facts/state-facts';
import type { RunScopes, Violation } from '../core/decision';
import { memoKey } from '../core/memo';

const TEAM_SCOPES = memoKey<RunScopes>("the run's team scopes");
const ENVIRONMENT_SCOPES = memoKey<RunScopes>("the run's environment scopes");

/**
 * The run's own scopes of one kind (`environment` can be two, with an override), or why there are
 * none. The same for every state rule of a decision: built once per decision and kind, frozen.
 */
export function runScopes(ctx: EvaluationContext, per: ScopeKind): RunScopes {
  return per === 'team'
    ? ctx.memo.get(TEAM_SCOPES, () => teamScopes(ctx))
    : ctx.memo.get(ENVIRONMENT_SCOPES, () => environmentScopes(ctx));
}

function teamScopes(ctx: EvaluationContext): RunScopes {
  const team = ctx.execution.teamKey;
  if (!team)
    return Object.freeze({
      reason: 'cannot decide: the payload names no team (execution.teamKey is missing)',
      status: 'undecidable',
    });
  return Object.freeze([{ key: scopeKey('team', team), label: `team ${team}` }]);
}

function environmentScopes(ctx: EvaluationContext): RunScopes {
  if (ctx.environments.length === 0)
    return Object.freeze({
      reason: 'cannot decide: the payload names no environment (execution.environment is missing)',
      status: 'undecidable',
    });
  return Object.freeze(
    ctx.environments.map((e) => ({ key: scopeKey('environment', e.value), label: `environment ${e.value}` })),
  );
}

/** Whether the run has no scope of the kind (the value is then the violation that says why). */
export const noScopes = (scopes: RunScopes): scopes is Violation => !Array.isArray(scopes);

const NO_RUNS: readonly RunRef[] = Object.freeze([]);

/** Runs other than the one being preflighted (Steadybit may report its creation first); a numeric execution id is the same run as its text. */
export function otherRuns(runs: readonly RunRef[] | undefined, ctx: EvaluationContext): readonly RunRef[] {
  if (runs === undefined || runs.length === 0) return NO_RUNS;
  const self = ctx.execution.id === undefined ? undefined : String(ctx.execution.id);
  return runs.filter((r) => String(r.id) !== self);
}
