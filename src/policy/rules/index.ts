import type { RuleKind } from '../rule-kind';
import { environmentsRule } from './environments';

/** Every rule kind a policy can use, keyed by its YAML name. Add new kinds here. */
export const RULE_KINDS: ReadonlyArray<RuleKind<never>> = [
  environmentsRule,
] as ReadonlyArray<RuleKind<never>>;

export const RULES_BY_KEY: ReadonlyMap<string, RuleKind<never>> = new Map(RULE_KINDS.map((k) => [k.key, k]));
