import type { Checked } from '../core/checked';
import type { EvaluationContext } from '../core/evaluation-context';
import type { Violation } from '../core/decision';
import { memoKey } from '../core/memo';
import { signalRunValues } from '../signals/run-values';
import type { RunValues } from '../signals/placeholder-text';
import { attackedValues, type AttackedValues } from '../signals/attacked-values';
import { targetRuns } from '../signals/target-runs';

/** The run's placeholder values for signal rules, one set per name of each environment it touches. */
export function runValuesOf(ctx: EvaluationContext): RunValues[] {
  return signalRunValues(ctx.execution, ctx.environments);
}

/** The values of a target attribute the run acts on: built once per decision and key, never written to. */
const ATTACKED_VALUES = memoKey<Map<string, AttackedValues>>('attacked values');

function attackedOf(ctx: EvaluationContext, key: string): AttackedValues {
  const memo = ctx.memo.get(ATTACKED_VALUES, () => new Map());
  let found = memo.get(key);
  if (!found) memo.set(key, (found = attackedValues(ctx.actionSteps, key)));
  return found;
}

/**
 * The run values a signal rule asks about: one set per environment, times each value of the target
 * attributes its `{{target.<key>}}` placeholders read (`keys`), and the reasons it cannot decide
 * (more values than MAX_TARGET_VALUES; targets without an attribute unless `whenMissing: allow`).
 */
export function signalRunsOf(
  ctx: EvaluationContext,
  keys: readonly string[],
  whenMissing: 'deny' | 'allow' = 'deny',
): { runs: RunValues[]; blind: Violation[] } {
  const { runs, problems } = targetRuns(runValuesOf(ctx), keys, (key) => attackedOf(ctx, key), whenMissing !== 'allow');
  return { runs, blind: problems.map((reason) => ({ reason, status: 'undecidable' })) };
}

/** What a signal check found and read, after the reasons its run values could not be known (`blind`). */
export function withBlind(blind: readonly Violation[], checked: Checked): Checked {
  return blind.length === 0 ? checked : { found: [...blind, ...checked.found], read: checked.read };
}
