import type { Execution } from '../payload/types';
import type { RunEnvironment } from './types';

export type EnvironmentAliases = ReadonlyMap<string, readonly string[]>;

/**
 * The environments a run touches: its environment and, if set, the (deprecated) override, each
 * with the keys a policy may name it by: the value sent (a name or an id) and every alias whose
 * id list contains it. All lower-cased.
 */
export function runEnvironments(execution: Execution, aliases: EnvironmentAliases): RunEnvironment[] {
  const values: string[] = [];
  if (execution.environment) values.push(execution.environment);
  const override = execution.overrides?.environment;
  if (override && override !== execution.environment) values.push(override);
  return values.map((value) => {
    const lower = value.toLowerCase();
    const keys = new Set([lower]);
    for (const [alias, ids] of aliases) {
      if (ids.some((id) => id.toLowerCase() === lower)) keys.add(alias.toLowerCase());
    }
    return { value, keys };
  });
}

/** Lower-cased set of environment names, ids or aliases listed in a policy. */
export function environmentSet(list: readonly string[]): Set<string> {
  return new Set(list.map((e) => e.toLowerCase()));
}

export function isListed(env: RunEnvironment, listed: ReadonlySet<string>): boolean {
  for (const k of env.keys) if (listed.has(k)) return true;
  return false;
}
