"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.STRING_SYNTAXES = exports.NAME_PATTERN = void 0;
const duration_1 = require("./duration");
const glob_syntax_1 = require("./glob-syntax");
const lookalike_text_1 = require("./lookalike-text");
const zone_name_1 = require("./zone-name");
const sample_value_1 = require("./sample-value");
/**
 * Strings of a policy that have a syntax of their own, checked when the set loads: a typo in one
 * would otherwise match nothing and silently disable what the policy guards. The policy schemas
 * mark such a string with the ajv keyword `syntax` (src/validation/ajv.ts), so every malformed
 * string of a document is reported at once, each at its own line.
 */
/** Names of policies, exceptions and test expectations: what metrics, audit lines and waivers refer to. */
exports.NAME_PATTERN = '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$';
const NAME = new RegExp(exports.NAME_PATTERN);
const WITH_UNITS = new RegExp(duration_1.DURATION_WITH_UNITS_PATTERN);
const SOURCE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
exports.STRING_SYNTAXES = {
    /** Action ids, experiment keys, target types: docs/policies.md, "Globs". */
    glob: glob_syntax_1.globProblem,
    /** Environment names, ids and aliases, team keys: compared exactly, never as globs, no lookalikes. */
    name: (value) => trimmedProblem(value) ??
        (0, lookalike_text_1.lookalikeProblem)(value) ??
        (/[*?[\]{}]/.test(value)
            ? `"${value}" is compared exactly, not as a glob (names, ids and team keys have no wildcards): list each name`
            : undefined),
    /** Attribute keys and values, parameter names: compared exactly. */
    trimmed: (value) => trimmedProblem(value) ?? (0, lookalike_text_1.invisibleProblem)(value),
    timeZone: zone_name_1.zoneProblem,
    /** `name:` of a policy or exception, and the policy an exception or a test names. */
    policyName: (value) => NAME.test(value)
        ? undefined
        : `"${value}" is not a name: use lower-case letters, digits and dashes (at most 63), starting and ending with a letter or digit${nameMeant(value)}`,
    /** The name of a signal source (SIGNAL_SOURCES_FILE, a rule's `source:`). */
    sourceName: (value) => SOURCE_NAME.test(value)
        ? undefined
        : `"${value}" is not a source name: use letters, digits, "_", "." and "-", starting with a letter or digit`,
    /** Cool-downs and quota windows: always with a unit. */
    duration: (value) => WITH_UNITS.test(value) && (0, duration_1.parseDuration)(value) !== undefined
        ? undefined
        : `"${value}" is not a duration: write an amount with a unit (ms, s, m, h, d, w), each unit at most once, largest first, e.g. 30s, 5m, 1h30m, 1d`,
    /** A Prometheus sample value in signal facts (docs/signals.md): never read as NaN by mistake. */
    sampleValue: (value) => (0, sample_value_1.sampleValue)(value) !== undefined
        ? undefined
        : `"${value}" is not a sample value: write a number as Prometheus does, e.g. "16.2", or "+Inf", "-Inf", "NaN"`,
};
/** The name `value` reads as in lower case with dashes (`Blocked_Environments` -> blocked-environments), when that is one. */
function nameMeant(value) {
    const meant = value.trim().toLowerCase().replace(/[_ ]/g, '-');
    return NAME.test(meant) ? `: did you mean "${meant}"?` : '';
}
function trimmedProblem(value) {
    return value.trim() === value
        ? undefined
        : `"${value}" starts or ends with whitespace, so it would never equal what Steadybit sends`;
}
//# sourceMappingURL=string-syntax.js.map