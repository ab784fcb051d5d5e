"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.fillsEnvironment = exports.targetKeysOf = exports.targetKeyOf = exports.SIGNAL_PLACEHOLDERS = void 0;
exports.parsePlaceholderText = parsePlaceholderText;
exports.fillText = fillText;
exports.missingValueText = missingValueText;
exports.escapeRegex = escapeRegex;
/**
 * Text with `{{name}}` placeholders filled from the run at decision time, e.g. a matcher value
 * `{{environment}}` or a PromQL label value. Compiled once, at load time; an unknown placeholder is
 * a load error. Values are escaped for the place they land in (see `Escape`), never pasted raw.
 */
exports.SIGNAL_PLACEHOLDERS = ['environment', 'team', 'experimentKey', 'executionId'];
const PLACEHOLDER = /\{\{\s*(target\.[A-Za-z0-9][A-Za-z0-9._/-]*|[A-Za-z]+)\s*\}\}/g;
const TARGET = 'target.';
/** The attribute key of a `{{target.<key>}}` placeholder, else undefined. */
const targetKeyOf = (name) => name.startsWith(TARGET) ? name.slice(TARGET.length) : undefined;
exports.targetKeyOf = targetKeyOf;
/** The attribute keys a text's `{{target.<key>}}` placeholders read. */
const targetKeysOf = (text) => text.names.flatMap((n) => (0, exports.targetKeyOf)(n) ?? []);
exports.targetKeysOf = targetKeysOf;
/** Whether a text fills in `{{environment}}`: its rule then needs the environment's name (the environment-names need). */
const fillsEnvironment = (text) => /\{\{\s*environment\s*\}\}/.test(text);
exports.fillsEnvironment = fillsEnvironment;
/** Parses `{{name}}` placeholders; returns the problem as text for a malformed or unknown one. */
function parsePlaceholderText(source) {
    const parts = [];
    const names = [];
    let last = 0;
    for (const m of source.matchAll(PLACEHOLDER)) {
        const name = m[1];
        if ((0, exports.targetKeyOf)(name) === undefined && !exports.SIGNAL_PLACEHOLDERS.includes(name)) {
            return `unknown placeholder {{${m[1]}}}; use one of ${exports.SIGNAL_PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')} or {{target.<attribute>}}`;
        }
        if (m.index > last)
            parts.push(source.slice(last, m.index));
        parts.push({ placeholder: name });
        if (!names.includes(name))
            names.push(name);
        last = m.index + m[0].length;
    }
    if (last < source.length)
        parts.push(source.slice(last));
    const stray = parts.find((p) => typeof p === 'string' && /\{\{|\}\}/.test(p));
    if (stray !== undefined)
        return `malformed placeholder in "${source}": write {{name}} with letters only, e.g. {{environment}}, or {{target.<attribute>}}`;
    return { source, parts, names };
}
/** The text for one run, or the placeholder the run has no value for. */
function fillText(text, values, escapeValue = (v) => v) {
    let out = '';
    for (let i = 0; i < text.parts.length; i++) {
        const part = text.parts[i];
        if (typeof part === 'string') {
            out += part;
            continue;
        }
        const key = (0, exports.targetKeyOf)(part.placeholder);
        const value = key === undefined ? values[part.placeholder] : values.targets?.[key];
        if (value === undefined || value === '')
            return { missing: part.placeholder };
        out += escapeValue(value, i);
    }
    return { text: out };
}
/** What the run does not say, as a "cannot decide" reason names it. */
function missingValueText(name, run) {
    const key = (0, exports.targetKeyOf)(name);
    if (key !== undefined)
        return `no target of the run carries ${key}`;
    switch (name) {
        case 'environment':
            return run.unnamedEnvironment !== undefined
                ? `no name is known for the run's environment ${run.unnamedEnvironment} (name it in an EnvironmentAliases document, or let the Steadybit Platform API name it; the id itself is never filled in, no label carries it)`
                : 'the payload names no environment (execution.environment is missing)';
        case 'team':
            return 'the payload names no team (execution.teamKey is missing)';
        case 'experimentKey':
            return 'the payload names no experiment (execution.experimentKey is missing)';
        case 'executionId':
            return 'the payload has no execution id (execution.id is missing)';
    }
}
/** Escapes every regular-expression metacharacter (RE2 and JavaScript agree on these). */
function escapeRegex(value) {
    return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
//# sourceMappingURL=placeholder-text.js.map