"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.validated = void 0;
exports.toFieldPath = toFieldPath;
exports.toFieldErrors = toFieldErrors;
exports.toLocatedErrors = toLocatedErrors;
const field_path_1 = require("./field-path");
const collapse_alternatives_1 = require("./collapse-alternatives");
const error_context_1 = require("./error-context");
/**
 * ajv errors -> messages for people: one line per mistake, `path: message` (toFieldErrors), or
 * located in a YAML document (toLocatedErrors). Needs only the errors, so a precompiled validator
 * (src/validation/validator.ts) is enough: no ajv compiler is loaded.
 */
/** The input of a validate function for the error messages: `validated(validate, value)`. */
const validated = (validate, data) => ({
    data,
    schema: validate.schema,
});
exports.validated = validated;
/** `/execution/steps/1/id` -> `execution.steps[1].id` (how a person writes a field path). */
function toFieldPath(instancePath, missingProperty) {
    const path = (0, field_path_1.splitPointer)(instancePath);
    if (missingProperty !== undefined)
        path.push(missingProperty);
    return (0, field_path_1.pathText)(path) || '(root)';
}
/** The field an ajv error is about: an unknown key (additionalProperties) or a missing one (required). */
function namedField(e) {
    if (e.keyword === 'additionalProperties')
        return { unknownKey: String(e.params.additionalProperty) };
    if (e.keyword === 'required')
        return { missing: String(e.params.missingProperty) };
    return {};
}
/** The fields an object allows where an additionalProperties error found another (its schema's `properties`). */
function knownFieldsOf(e) {
    if (e.keyword !== 'additionalProperties')
        return undefined;
    const properties = e.parentSchema?.properties;
    return properties === undefined ? undefined : Object.keys(properties);
}
/** What was written, for a message: a short scalar as JSON (`"stpo"`), else nothing (a target list is not echoed). */
function shownValue(data) {
    if (data === null || !['string', 'number', 'boolean'].includes(typeof data))
        return undefined;
    const text = JSON.stringify(data);
    return text.length <= 60 ? text : undefined;
}
/** The values an enum (or a const) allows. */
const allowedOf = (e) => e.keyword === 'const' ? [e.params.allowedValue] : e.params.allowedValues;
/** `must be one of report, stop, got "stpo"`, `must be PolicyTestSuite, got "Polcy"` (the value written and the values allowed). */
function enumMessage(e) {
    const got = shownValue(e.data);
    const allowed = allowedOf(e).map(String);
    return `must be ${e.keyword === 'const' ? '' : 'one of '}${allowed.join(', ')}${got === undefined ? '' : `, got ${got}`}`;
}
/** The message of one error, without its field; an unknown field's list of known ones is added by the caller. */
function messageOf(e, badKey) {
    const { missing, unknownKey } = namedField(e);
    if (missing)
        return 'is required';
    if (unknownKey)
        return 'is not a known field';
    if (e.keyword === 'enum' || e.keyword === 'const')
        return enumMessage(e);
    const message = e.message ?? 'is invalid';
    return badKey === undefined || e.keyword === 'syntax' ? message : `key ${JSON.stringify(badKey)} ${message}`;
}
/**
 * ajv errors -> one line each, `path: message`, without the noise of failed anyOf branches. With
 * `input` (`validated(validate, value)`), a message says the value written and the fields known.
 */
function toFieldErrors(errors, input) {
    const out = [];
    const seen = new Set();
    const all = (0, collapse_alternatives_1.collapseAlternatives)((0, error_context_1.withErrorContext)(errors ?? [], input));
    const { keys: badKeys, explained } = keysOfPropertyNameErrors(all);
    for (const e of all) {
        if (explained.has(e))
            continue;
        const { missing, unknownKey: extra } = namedField(e);
        const path = toFieldPath(e.instancePath, missing ?? extra);
        const known = knownFieldsOf(e);
        const message = `${messageOf(e, badKeys.get(e))}${known === undefined ? '' : `; known fields: ${known.join(', ')}`}`;
        const line = `${path}: ${message}`;
        if (!seen.has(line)) {
            seen.add(line);
            out.push({ path, message });
        }
    }
    return out;
}
/**
 * The key each error under `propertyNames` is about. ajv names it only on the summary error that
 * follows (`property name must be valid`, params.propertyName), not on the errors that say why.
 */
function keysOfPropertyNameErrors(errors) {
    const keys = new Map();
    const explained = new Set();
    let pending = [];
    for (const e of errors) {
        if (e.keyword !== 'propertyNames') {
            if (e.schemaPath.includes('/propertyNames/'))
                pending.push(e);
            continue;
        }
        const name = String(e.params.propertyName);
        for (const inner of pending) {
            if (inner.instancePath === e.instancePath && inner.schemaPath.startsWith(`${e.schemaPath}/`)) {
                keys.set(inner, name);
                explained.add(e);
            }
        }
        pending = pending.filter((inner) => !keys.has(inner));
    }
    return { keys, explained };
}
/**
 * ajv errors against a YAML document (policies, test suites), to be located at file:line:col. A
 * key that breaks `propertyNames` is reported once, at the key, with its own schema's message.
 */
function toLocatedErrors(errors, input) {
    const all = (0, collapse_alternatives_1.collapseAlternatives)((0, error_context_1.withErrorContext)(errors ?? [], input));
    const { keys: badKeys, explained } = keysOfPropertyNameErrors(all);
    // A string with a `syntax` of its own says what is wrong with it; its bare `pattern` error goes.
    const explainedBySyntax = new Set(all.filter((e) => e.keyword === 'syntax').map((e) => `${e.instancePath}\n${badKeys.get(e) ?? ''}`));
    const superseded = (e) => e.keyword === 'pattern' && explainedBySyntax.has(`${e.instancePath}\n${badKeys.get(e) ?? ''}`);
    return all
        .filter((e) => !explained.has(e) && !superseded(e))
        .map((e) => {
        const { missing, unknownKey } = namedField(e);
        const path = (0, field_path_1.splitPointer)(e.instancePath);
        const badKey = badKeys.get(e);
        const syntax = e.keyword === 'syntax';
        if (badKey !== undefined)
            return {
                path: [...path, badKey],
                message: syntax ? String(e.message) : `key ${e.message ?? 'is invalid'}`,
                atKey: true,
                syntax,
            };
        if (unknownKey !== undefined)
            path.push(unknownKey);
        const message = messageOf(e, undefined);
        const field = unknownKey ?? missing;
        return {
            path,
            message: field === undefined ? message : `${field} ${message}`,
            unknownKey,
            knownFields: knownFieldsOf(e),
            ...enumValues(e),
            atKey: unknownKey !== undefined,
            syntax,
        };
    });
}
/** The allowed strings of an enum (or const) error and the string written instead (for a suggestion), if both are strings. */
function enumValues(e) {
    if ((e.keyword !== 'enum' && e.keyword !== 'const') || typeof e.data !== 'string')
        return {};
    const allowed = allowedOf(e).filter((v) => typeof v === 'string');
    return { allowedValues: allowed, badValue: e.data };
}
//# sourceMappingURL=field-errors.js.map