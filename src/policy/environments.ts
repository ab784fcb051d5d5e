import type { Execution } from '../payload/types';
import type { RunEnvironment } from './types';

export type EnvironmentAliases = ReadonlyMap<string, readonly string[]>;

/**
 * The environments a run touches: its environment and, if set, the (deprecated) override, each
 * with the keys a policy may name it by: the value sent (a name or an id) and every alias whose
 * id list contains it. All lower-cased.
 */
export function runEnvironments(execution: Execution, aliasesById: AliasesById): RunEnvironment[] {
  const values: string[] = [];
  if (execution.environment) values.push(execution.environment);
  const override = execution.overrides?.environment;
  if (override && override !== execution.environment) values.push(override);
  return values.map((value) => {
    const lower = value.toLowerCase();
    return { value, keys: new Set([lower, ...(aliasesById.get(lower) ?? [])]) };
  });
}

/** Lower-cased environment id -> the alias names that list it (lower-cased). */
export type AliasesById = ReadonlyMap<string, readonly string[]>;

/** The aliases inverted, once per bundle at load (PolicyBundle.aliasesById), not scanned per decision. */
export function invertAliases(aliases: EnvironmentAliases): AliasesById {
  const out = new Map<string, string[]>();
  for (const [alias, ids] of aliases) {
    for (const id of new Set(ids.map((i) => i.toLowerCase()))) out.set(id, [...(out.get(id) ?? []), alias.toLowerCase()]);
  }
  return out;
}

/** Lower-cased set of environment names, ids or aliases listed in a policy. */
export function environmentSet(list: readonly string[]): Set<string> {
  return new Set(list.map((e) => e.toLowerCase()));
}

export function isListed(env: RunEnvironment, listed: ReadonlySet<string>): boolean {
  for (const k of env.keys) if (listed.has(k)) return true;
  return false;
}

/** Whether any of the run's environments is listed (a match). */
export function anyListed(envs: readonly RunEnvironment[], listed: ReadonlySet<string>): boolean {
  for (const env of envs) if (isListed(env, listed)) return true;
  return false;
}

/** Whether every one of the run's environments is listed (an exclude, a waiver's reach). */
export function allListed(envs: readonly RunEnvironment[], listed: ReadonlySet<string>): boolean {
  for (const env of envs) if (!isListed(env, listed)) return false;
  return true;
}
