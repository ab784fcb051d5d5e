import type { Execution } from '../payload/types';
import { scopeKey } from '../policy/facts/state-facts';

export { SCOPE_KINDS, scopeKey, type ScopeKind } from '../policy/facts/state-facts';

/** The team and every environment (incl. an override) of an execution, as scope keys. */
export function executionScopes(execution: Execution): string[] {
  const keys = new Set<string>();
  if (execution.teamKey) keys.add(scopeKey('team', execution.teamKey));
  if (execution.environment) keys.add(scopeKey('environment', execution.environment));
  if (execution.overrides?.environment) keys.add(scopeKey('environment', execution.overrides.environment));
  return [...keys];
}
