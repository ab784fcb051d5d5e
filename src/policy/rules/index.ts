import type { RuleKind } from '../core/rule-kind';
import { actionsRule } from './actions';
import { alertsRule } from './alerts';
import { blastRadiusRule } from './blast-radius';
import { concurrencyRule } from './concurrency';
import { conditionRule } from './condition';
import { cooldownRule } from './cooldown';
import { emergencyStopRule } from './emergency-stop';
import { environmentsRule } from './environments';
import { parametersRule } from './parameters';
import { jsonSignalRule } from './json-signal';
import { noMutingRule } from './no-muting';
import { noOverlapRule } from './no-overlap';
import { prometheusRule } from './prometheus';
import { quotaRule } from './quota';
import { targetAttributesRule } from './target-attributes';
import { perGroupRule } from './per-group';
import { targetsRule } from './targets';
import { timeWindowRule } from './time-window';

/** Every rule kind a policy can use, keyed by its YAML name. Add new kinds here. */
export const RULE_KINDS: ReadonlyArray<RuleKind<never>> = [
  environmentsRule,
  actionsRule,
  targetsRule,
  blastRadiusRule,
  perGroupRule,
  targetAttributesRule,
  parametersRule,
  timeWindowRule,
  conditionRule,
  emergencyStopRule,
  concurrencyRule,
  cooldownRule,
  quotaRule,
  noOverlapRule,
  noMutingRule,
  alertsRule,
  prometheusRule,
  jsonSignalRule,
] as ReadonlyArray<RuleKind<never>>;

export const RULES_BY_KEY: ReadonlyMap<string, RuleKind<never>> = new Map(RULE_KINDS.map((k) => [k.key, k]));
