import type { Execution } from '../payload/types';

export type ScopeKind = 'team' | 'environment';
export const SCOPE_KINDS: readonly ScopeKind[] = ['environment', 'team'];

/** The key state is counted under: `team:adm`, `environment:production` (lower-cased). */
export function scopeKey(kind: ScopeKind, value: string): string {
  return `${kind}:${value.toLowerCase()}`;
}

/** The team and every environment (incl. an override) of an execution, as scope keys. */
export function executionScopes(execution: Execution): string[] {
  const keys = new Set<string>();
  if (execution.teamKey) keys.add(scopeKey('team', execution.teamKey));
  if (execution.environment) keys.add(scopeKey('environment', execution.environment));
  if (execution.overrides?.environment) keys.add(scopeKey('environment', execution.overrides.environment));
  return [...keys];
}
