/** A semantic problem in a rule's spec, found at load time. `path` is relative to the rule. */
export class RuleSpecError extends Error {
  constructor(message: string, readonly path: string[] = []) {
    super(message);
    this.name = 'RuleSpecError';
  }
}
