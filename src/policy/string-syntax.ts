import { globProblem } from './glob-syntax';
import { zoneProblem } from './time/zone';

/**
 * Strings of a policy that have a syntax of their own, checked when the set loads: a typo in one
 * would otherwise match nothing and silently disable what the policy guards. The policy schemas
 * mark such a string with the ajv keyword `syntax` (src/validation/ajv.ts), so every malformed
 * string of a document is reported at once, each at its own line.
 */
export const STRING_SYNTAXES = {
  /** Action ids, experiment keys, target types: docs/policies.md, "Globs". */
  glob: globProblem,
  /** Environment names, ids and aliases, team keys: compared exactly, never as globs. */
  name: (value: string) => trimmedProblem(value) ?? (/[*?[\]{}]/.test(value)
    ? `"${value}" is compared exactly, not as a glob (names, ids and team keys have no wildcards): list each name`
    : undefined),
  /** Attribute keys and values, parameter names: compared exactly. */
  trimmed: (value: string) => trimmedProblem(value),
  timeZone: zoneProblem,
} as const satisfies Record<string, (value: string) => string | undefined>;

export type StringSyntax = keyof typeof STRING_SYNTAXES;

function trimmedProblem(value: string): string | undefined {
  return value.trim() === value ? undefined : `"${value}" starts or ends with whitespace, so it would never equal what Steadybit sends`;
}
