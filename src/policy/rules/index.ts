import type { RuleKind } from '../rule-kind';
import { conditionRule } from './condition';
import { environmentsRule } from './environments';
import { timeWindowRule } from './time-window';

/** Every rule kind a policy can use, keyed by its YAML name. Add new kinds here. */
export const RULE_KINDS: ReadonlyArray<RuleKind<never>> = [
  environmentsRule,
  timeWindowRule,
  conditionRule,
] as ReadonlyArray<RuleKind<never>>;

export const RULES_BY_KEY: ReadonlyMap<string, RuleKind<never>> = new Map(RULE_KINDS.map((k) => [k.key, k]));
