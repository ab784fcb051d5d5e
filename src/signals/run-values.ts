import type { Execution } from '../payload/types';
import type { RunValues } from './placeholder-text';

/**
 * The placeholder values of a run, one set per environment it touches (its environment and an
 * override): a signal rule asks about each. A run without environment still gets one set.
 */
export function signalRunValues(execution: Execution, environments: readonly string[]): RunValues[] {
  const base: RunValues = {
    team: execution.teamKey,
    experimentKey: execution.experimentKey,
    executionId: execution.id === undefined ? undefined : String(execution.id),
  };
  if (environments.length === 0) return [base];
  return environments.map((environment) => ({ ...base, environment }));
}
