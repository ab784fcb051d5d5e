import type { SignalNeed } from './signal-need';
import type { EnvironmentNamesNeed } from './environment-facts';
import type { StateNeed } from './state-facts';
import type { TeamMembersNeed } from './team-facts';

/**
 * What a rule needs from outside the payload, declared when it compiles (RuleCheck.needs) and
 * collected per bundle at load (PolicyBundle.needs). Before a decision, factGatherer asks each fact
 * source for the needs of its kinds only. One union member per kind; a new source adds its kinds
 * here (CONTRIBUTING.md).
 */
export type Need = StateNeed | SignalNeed | EnvironmentNamesNeed | TeamMembersNeed;

export type NeedKind = Need['kind'];

/** Same need, same key (needs are plain data). */
export const needKey = (need: Need): string => JSON.stringify(need, Object.keys(need).sort());

/** The needs of every rule, each once, in the order first met (load time). */
export function collectNeeds(rules: Iterable<{ needs?: readonly Need[] }>): readonly Need[] {
  const seen = new Map<string, Need>();
  for (const rule of rules)
    for (const need of rule.needs ?? []) {
      const key = needKey(need);
      if (!seen.has(key)) seen.set(key, need);
    }
  return Object.freeze([...seen.values()]);
}
