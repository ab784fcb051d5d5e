import type { RuleCheck } from './compiled';
import type { RuleBranch } from './rule-branch';
import { checkAll, checkEach, RuleSpecError, RuleSpecErrors } from './rule-spec-error';

export { checkAll, checkEach, RuleSpecError, RuleSpecErrors };

/**
 * A kind of rule a policy can list under `rules:`, e.g. `- environments: {blocked: [prod]}`.
 * Each kind lives in its own file under rules/ and is registered in rules/index.ts.
 */
export interface RuleKind<Spec = unknown> {
  /** The YAML key naming the rule. */
  key: string;
  /** One line for the docs and the editor schema. */
  description: string;
  /** JSON Schema of the spec; checked by ajv at load time. */
  schema: Record<string, unknown>;
  /**
   * Semantic checks and pre-computation; throws RuleSpecError for a bad spec. A function of the spec
   * alone: policies with the same spec share one compiled check (and its result within a request).
   */
  compile(spec: Spec): RuleCheck;
  /**
   * The ways the rule can answer that `test --coverage` counts apart (a time window: inside and
   * outside each window), for a spec that compiles. Absent: the rule counts once, when it judged.
   */
  branches?(spec: Spec): RuleBranch[];
}

export function defineRule<Spec>(kind: RuleKind<Spec>): RuleKind<Spec> {
  return kind;
}
