import { DURATION_WITH_UNITS_PATTERN, parseDuration } from './duration';
import { globProblem } from './glob-syntax';
import { invisibleProblem, lookalikeProblem } from './lookalike-text';
import { zoneProblem } from './zone-name';
import { sampleValue } from './sample-value';

/**
 * Strings of a policy that have a syntax of their own, checked when the set loads: a typo in one
 * would otherwise match nothing and silently disable what the policy guards. The policy schemas
 * mark such a string with the ajv keyword `syntax` (src/validation/ajv.ts), so every malformed
 * string of a document is reported at once, each at its own line.
 */
/** Names of policies, exceptions and test expectations: what metrics, audit lines and waivers refer to. */
export const NAME_PATTERN = '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$';
const NAME = new RegExp(NAME_PATTERN);
const WITH_UNITS = new RegExp(DURATION_WITH_UNITS_PATTERN);
const SOURCE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export const STRING_SYNTAXES = {
  /** Action ids, experiment keys, target types: docs/policies.md, "Globs". */
  glob: globProblem,
  /** Environment names, ids and aliases, team keys: compared exactly, never as globs, no lookalikes. */
  name: (value: string) =>
    trimmedProblem(value) ??
    lookalikeProblem(value) ??
    (/[*?[\]{}]/.test(value)
      ? `"${value}" is compared exactly, not as a glob (names, ids and team keys have no wildcards): list each name`
      : undefined),
  /** Attribute keys and values, parameter names: compared exactly. */
  trimmed: (value: string) => trimmedProblem(value) ?? invisibleProblem(value),
  timeZone: zoneProblem,
  /** `name:` of a policy or exception, and the policy an exception or a test names. */
  policyName: (value: string) =>
    NAME.test(value)
      ? undefined
      : `"${value}" is not a name: use lower-case letters, digits and dashes (at most 63), starting and ending with a letter or digit${nameMeant(value)}`,
  /** The name of a signal source (SIGNAL_SOURCES_FILE, a rule's `source:`). */
  sourceName: (value: string) =>
    SOURCE_NAME.test(value)
      ? undefined
      : `"${value}" is not a source name: use letters, digits, "_", "." and "-", starting with a letter or digit`,
  /** Cool-downs and quota windows: always with a unit. */
  duration: (value: string) =>
    WITH_UNITS.test(value) && parseDuration(value) !== undefined
      ? undefined
      : `"${value}" is not a duration: write an amount with a unit (ms, s, m, h, d, w), each unit at most once, largest first, e.g. 30s, 5m, 1h30m, 1d`,
  /** A Prometheus sample value in signal facts (docs/signals.md): never read as NaN by mistake. */
  sampleValue: (value: string) =>
    sampleValue(value) !== undefined
      ? undefined
      : `"${value}" is not a sample value: write a number as Prometheus does, e.g. "16.2", or "+Inf", "-Inf", "NaN"`,
} as const satisfies Record<string, (value: string) => string | undefined>;

export type StringSyntax = keyof typeof STRING_SYNTAXES;

/** The name `value` reads as in lower case with dashes (`Blocked_Environments` -> blocked-environments), when that is one. */
function nameMeant(value: string): string {
  const meant = value.trim().toLowerCase().replace(/[_ ]/g, '-');
  return NAME.test(meant) ? `: did you mean "${meant}"?` : '';
}

function trimmedProblem(value: string): string | undefined {
  return value.trim() === value
    ? undefined
    : `"${value}" starts or ends with whitespace, so it would never equal what Steadybit sends`;
}
