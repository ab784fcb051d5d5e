import type { EvaluationContext } from '../core/evaluation-context';
import type { Violation } from '../core/decision';
import { SIGNAL_READS } from '../engine/evaluate-policy';
import { signalRunValues } from '../../signals/run-values';
import type { RunValues } from '../../signals/placeholder-text';
import type { SignalRead, SignalViolation } from '../../signals/signal-violation';

/** The run's placeholder values for signal rules, one set per name of each environment it touches. */
export function runValuesOf(ctx: EvaluationContext): RunValues[] {
  return signalRunValues(ctx.execution, ctx.environments);
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
