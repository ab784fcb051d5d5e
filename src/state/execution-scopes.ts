import type { Execution } from '../payload/types';
import { SERVICE_KEYS, scopeKey, serviceScopeKey } from '../policy/facts/state-facts';
import { actionSteps } from '../policy/engine/action-steps';
import { attackedValues } from '../policy/signals/attacked-values';

export { SCOPE_KINDS, scopeKey, type ScopeKind } from '../policy/facts/state-facts';

/**
 * The team, every environment (incl. an override) and every attacked service (a value of one of
 * SERVICE_KEYS on the targets the run lists) of an execution, as scope keys.
 */
export function executionScopes(execution: Execution): string[] {
  const keys = new Set<string>();
  if (execution.teamKey) keys.add(scopeKey('team', execution.teamKey));
  if (execution.environment) keys.add(scopeKey('environment', execution.environment));
  if (execution.overrides?.environment) keys.add(scopeKey('environment', execution.overrides.environment));
  for (const key of serviceScopes(execution, SERVICE_KEYS)) keys.add(key);
  return [...keys];
}

/** The attacked services of an execution by `attributes`: `service:k8s.deployment=checkout` per distinct value. */
export function serviceScopes(execution: Execution, attributes: Iterable<string>): string[] {
  const steps = actionSteps(execution.steps);
  const keys: string[] = [];
  for (const attribute of attributes)
    for (const value of attackedValues(steps, attribute).values) keys.push(serviceScopeKey(attribute, value));
  return keys;
}
