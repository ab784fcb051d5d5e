/** A semantic problem in a rule's spec, found at load time. `path` is relative to the rule. */
export class RuleSpecError extends Error {
  constructor(
    message: string,
    readonly path: string[] = [],
  ) {
    super(message);
    this.name = 'RuleSpecError';
  }
}

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
