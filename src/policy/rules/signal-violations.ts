import type { EvaluationContext } from '../core/evaluation-context';
import type { Violation } from '../core/decision';
import { SIGNAL_READS } from '../engine/evaluate-policy';
import { signalRunValues } from '../../signals/run-values';
import type { RunValues } from '../../signals/placeholder-text';
import { attackedValues, type AttackedValues } from '../../signals/attacked-values';
import { targetRuns } from '../../signals/target-runs';
import { memoKey } from '../core/memo';
import type { SignalRead, SignalViolation } from '../../signals/signal-violation';

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
export function signalRunsOf(ctx: EvaluationContext, keys: readonly string[], whenMissing: 'deny' | 'allow' = 'deny'): { runs: RunValues[]; blind: Violation[] } {
  const { runs, problems } = targetRuns(runValuesOf(ctx), keys, (key) => attackedOf(ctx, key), whenMissing !== 'allow');
  return { runs, blind: problems.map((reason) => ({ reason, undecidable: true })) };
}

/**
 * A fresh list, kept in the decision's context under the rule's check, that the check fills with
 * what it read (pass or deny): the policy's result lists it (PolicyResult.signals, explanations).
 */
export function readsOf(ctx: EvaluationContext, check: unknown): SignalRead[] {
  const reads: SignalRead[] = [];
  ctx.memo.get(SIGNAL_READS, () => new Map()).set(check, reads);
  return reads;
}

/** A signal check's findings as the engine's violations: what was read goes with each (explanations). */
export function signalViolations(found: readonly SignalViolation[]): Violation[] {
  return found.map((f) => {
    const v: Violation = { reason: f.reason };
    if (f.value !== undefined) v.value = f.value;
    if (f.undecidable) v.undecidable = true;
    if (f.advisory) v.advisory = true;
    if (f.read) v.signal = f.read;
    return v;
  });
}
