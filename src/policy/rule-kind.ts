import type { CompiledRule } from './types';

/** A semantic problem in a rule's spec, found at load time. `path` is relative to the rule. */
export class RuleSpecError extends Error {
  constructor(message: string, readonly path: string[] = []) {
    super(message);
    this.name = 'RuleSpecError';
  }
}

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
  compile(spec: Spec): Omit<CompiledRule, 'kind' | 'path' | 'answer'>;
}

export function defineRule<Spec>(kind: RuleKind<Spec>): RuleKind<Spec> {
  return kind;
}
