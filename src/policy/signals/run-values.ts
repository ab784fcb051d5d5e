import type { Execution } from '../../payload/types';
import type { RunEnvironment } from '../core/decision';
import type { RunValues } from './placeholder-text';

/**
 * The placeholder values of a run, one set per name of each environment it touches (its environment
 * and an override; environmentNamesOf): a signal rule asks about each. Gathering and deciding both
 * fill placeholders from these, so the facts are keyed by the same query. An environment id without
 * a name gets a set without `environment` (its rule cannot decide, naming the id); a run without
 * environment still gets one set.
 */
export function signalRunValues(execution: Execution, environments: readonly RunEnvironment[]): RunValues[] {
  const base: RunValues = {
    team: execution.teamKey,
    experimentKey: execution.experimentKey,
    executionId: execution.id === undefined ? undefined : String(execution.id),
  };
  if (environments.length === 0) return [base];
  return environments.flatMap<RunValues>((env) =>
    env.names.length === 0
      ? [{ ...base, unnamedEnvironment: env.value }]
      : env.names.map((environment) => ({ ...base, environment })),
  );
}
