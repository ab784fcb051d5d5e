"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.nameTypoWarnings = nameTypoWarnings;
const common_environment_names_1 = require("./common-environment-names");
const steadybit_attribute_keys_1 = require("./steadybit-attribute-keys");
const steadybit_extensions_1 = require("./steadybit-extensions");
const typo_warnings_1 = require("./typo-warnings");
const lower = (names) => new Set([...names].map((n) => n.toLowerCase()));
function environmentTypos(refs) {
    const aliases = lower(refs.aliases.flatMap((a) => [a.alias, ...a.ids]));
    return (0, typo_warnings_1.typoWarnings)({
        written: refs.environments.map((e) => ({ text: e.value, at: e, subject: `environment "${e.value}"` })),
        known: aliases,
        knownAs: () => 'which an alias defines',
        preferred: new Set(common_environment_names_1.COMMON_ENVIRONMENT_NAMES),
        cost: 'a misspelt environment matches no run',
    });
}
function attributeKeyTypos(refs) {
    return (0, typo_warnings_1.typoWarnings)({
        written: [...refs.attributes, ...refs.queryAttributes].map((a) => ({
            text: a.key,
            at: a,
            subject: `attribute key "${a.key}"`,
        })),
        known: lower(steadybit_attribute_keys_1.STEADYBIT_ATTRIBUTE_KEYS),
        knownAs: () => 'a key Steadybit sends',
        cost: 'a misspelt key never matches what Steadybit sends',
        skip: (key) => steadybit_attribute_keys_1.LABEL_KEY_PREFIXES.some((p) => key.startsWith(p)),
    });
}
function teamTypos(refs) {
    return (0, typo_warnings_1.typoWarnings)({
        written: refs.teams.map((t) => ({ text: t.value, at: t, subject: `team "${t.value}"` })),
        known: new Set(),
        knownAs: () => '',
        cost: 'a misspelt team matches no run',
    });
}
/** Glob syntax (docs/policies.md, "Globs and names"): a segment holding any of these is a pattern, not a name. */
const GLOB_CHARS = /[*?[\]{}()!+@|\\]/;
/** The leading dot-separated segments of an action id glob that hold no glob syntax. */
function literalSegments(id) {
    const segments = id.split('.');
    const firstGlob = segments.findIndex((s) => GLOB_CHARS.test(s));
    return firstGlob === -1 ? segments : segments.slice(0, firstGlob);
}
const EXTENSION_SEGMENTS = 3; // com.steadybit.extension_kubernetes
/**
 * Action ids or target types (`com.steadybit.extension_container.container`): a whole one without
 * glob syntax one letter from another the set writes; else the extension part
 * (`com.steadybit.extension_kubernets` in `com.steadybit.extension_kubernets.*`) one letter from an
 * extension Steadybit ships or from one the set writes more often. The rest of a glob is a pattern,
 * never compared.
 */
function steadybitIdTypos(ids, what) {
    const cost = `a misspelt ${what} matches no step`;
    const literal = ids.filter((a) => literalSegments(a.value).length === a.value.split('.').length);
    const whole = (0, typo_warnings_1.typoWarnings)({
        written: literal.map((a) => ({ text: a.value, at: a, subject: `${what} "${a.value}"` })),
        known: new Set(),
        knownAs: () => '',
        cost,
    });
    const warned = new Set(whole.map((w) => `${w.file}:${w.line}:${w.col}`));
    const extensions = ids
        .filter((a) => literalSegments(a.value).length >= EXTENSION_SEGMENTS)
        .map((a) => {
        const extension = a.value.split('.').slice(0, EXTENSION_SEGMENTS).join('.');
        return {
            text: extension,
            at: a,
            subject: `the extension "${extension}" of ${what} "${a.value}"`,
            fix: (meant) => meant + a.value.slice(extension.length),
        };
    });
    const byExtension = (0, typo_warnings_1.typoWarnings)({
        written: extensions,
        known: lower(steadybit_extensions_1.STEADYBIT_EXTENSIONS),
        knownAs: () => 'an extension of Steadybit',
        cost,
    }).filter((w) => !warned.has(`${w.file}:${w.line}:${w.col}`));
    return [...whole, ...byExtension];
}
/**
 * Warnings for names that validate but are likely typos (`environments: [prodution]`,
 * `requireKeys: [k8s.namspace]`, `teams: [paymnts-team]`, `com.steadybit.extension_kubernets.*`):
 * a name the set does not define itself that is one edit away from one it knows. Environments are
 * known from the aliases and the other policies (of two written equally often, a common name such as
 * `staging` is taken as meant); attribute keys from the keys
 * Steadybit's extensions send and the other policies; teams from the other policies; action ids
 * and target types from Steadybit's extensions and the other policies. Warnings, not errors: a name Steadybit has
 * and the set does not is fine (`preflight-gate doctor` checks names against the platform itself).
 */
function nameTypoWarnings(refs) {
    return [
        ...environmentTypos(refs),
        ...attributeKeyTypos(refs),
        ...teamTypos(refs),
        ...steadybitIdTypos(refs.actionIds, 'action id'),
        ...steadybitIdTypos(refs.targetTypes, 'target type'),
    ];
}
//# sourceMappingURL=name-typos.js.map