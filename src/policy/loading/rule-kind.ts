import type { RuleCheck } from '../compiled';
import { RuleSpecError } from './rule-spec-error';

export { RuleSpecError };

/** Several RuleSpecErrors of one spec, reported together (every malformed window, limit...). */
export class RuleSpecErrors extends Error {
  constructor(readonly errors: readonly RuleSpecError[]) {
    super(errors.map((e) => e.message).join('; '));
    this.name = 'RuleSpecErrors';
  }
}

/**
 * `check` over every item, collecting the RuleSpecError of each: a spec with three bad windows
 * reports three problems at once, not the first. Throws RuleSpecErrors when any item failed.
 */
export function checkEach<T, R>(items: readonly T[], check: (item: T, i: number) => R): R[] {
  const out: R[] = [];
  const errors: RuleSpecError[] = [];
  items.forEach((item, i) => {
    try {
      out.push(check(item, i));
    } catch (err) {
      if (err instanceof RuleSpecError) errors.push(err);
      else if (err instanceof RuleSpecErrors) errors.push(...err.errors);
      else throw err;
    }
  });
  if (errors.length > 0) throw new RuleSpecErrors(errors);
  return out;
}

/** Each part checked, every failure reported: `checkAll(() => a(), () => b())` -> [a, b]. */
export function checkAll<T extends unknown[]>(...parts: { [K in keyof T]: () => T[K] }): T {
  return checkEach(parts as Array<() => unknown>, (part) => part()) as T;
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
  compile(spec: Spec): RuleCheck;
}

export function defineRule<Spec>(kind: RuleKind<Spec>): RuleKind<Spec> {
  return kind;
}
