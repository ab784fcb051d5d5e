"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseMatchers = parseMatchers;
exports.resolveMatchers = resolveMatchers;
exports.matchesLabels = matchesLabels;
exports.matcherText = matcherText;
const placeholder_text_1 = require("./placeholder-text");
const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const OPS = ['=~', '!~', '!=', '='];
const isRegexOp = (op) => op === '=~' || op === '!~';
/** An anchored regex as Alertmanager applies it (`^(?:v)$`), or why the value is not one. */
function anchored(value) {
    try {
        return new RegExp(`^(?:${value})$`);
    }
    catch (err) {
        return `invalid regular expression "${value}": ${err instanceof Error ? err.message : String(err)}`;
    }
}
/** A quoted value (`"a\"b"`), unescaped; returns the rest of the text after it. */
function quoted(text) {
    let value = '';
    for (let i = 1; i < text.length; i++) {
        const c = text[i];
        if (c === '"')
            return { value, rest: text.slice(i + 1) };
        if (c === '\\') {
            const next = text[++i];
            if (next === undefined)
                break;
            value += next === 'n' ? '\n' : next;
        }
        else
            value += c;
    }
    return `unterminated quoted value in ${text}`;
}
function parseOne(text) {
    const name = NAME.exec(text)?.[0];
    if (!name)
        return `expected a label name at "${text}"`;
    let rest = text.slice(name.length).trimStart();
    const op = OPS.find((o) => rest.startsWith(o));
    if (!op)
        return `expected one of = != =~ !~ after "${name}"`;
    rest = rest.slice(op.length).trimStart();
    let raw;
    if (rest.startsWith('"')) {
        const q = quoted(rest);
        if (typeof q === 'string')
            return q;
        raw = q.value;
        rest = q.rest;
    }
    else {
        const end = /[,}]/.exec(rest)?.index ?? rest.length;
        raw = rest.slice(0, end).trim();
        rest = rest.slice(end);
        if (/["\s]/.test(raw))
            return `value of ${name} must be quoted: ${name}${op}"${raw}"`;
    }
    const value = (0, placeholder_text_1.parsePlaceholderText)(raw);
    if (typeof value === 'string')
        return value;
    const matcher = { name, op, value };
    if (isRegexOp(op)) {
        // Placeholders are regex-escaped when filled, so the pattern around them must already be valid.
        const probe = anchored(value.parts.map((p) => (typeof p === 'string' ? p : 'x')).join(''));
        if (typeof probe === 'string')
            return probe;
        if (value.names.length === 0)
            matcher.regex = probe;
    }
    return { matcher, rest: rest.trimStart() };
}
/**
 * Parses Alertmanager matcher syntax: `severity="critical"`, `{team="a", severity=~"critical|page"}`
 * (several, comma-separated, braces optional), unquoted simple values allowed. Returns the problem
 * as text for a bad one (a load-time error).
 */
function parseMatchers(text) {
    let rest = text.trim();
    const braced = rest.startsWith('{');
    if (braced) {
        if (!rest.endsWith('}'))
            return `matchers "${text}" open a { that is not closed`;
        rest = rest.slice(1, -1).trim();
    }
    const out = [];
    while (rest !== '') {
        const one = parseOne(rest);
        if (typeof one === 'string')
            return `in matcher "${text}": ${one}`;
        out.push(one.matcher);
        rest = one.rest;
        if (rest.startsWith(','))
            rest = rest.slice(1).trimStart();
        else if (rest !== '')
            return `in matcher "${text}": expected "," before "${rest}"`;
    }
    if (out.length === 0)
        return `matcher "${text}" is empty`;
    return out;
}
/** The matchers for one run, or the placeholder the run has no value for. */
function resolveMatchers(matchers, values) {
    const out = [];
    for (const m of matchers) {
        const filled = (0, placeholder_text_1.fillText)(m.value, values, isRegexOp(m.op) ? placeholder_text_1.escapeRegex : undefined);
        if ('missing' in filled)
            return filled;
        const regex = m.regex ?? (isRegexOp(m.op) ? anchored(filled.text) : undefined);
        // The pattern was checked at load time and filled values are escaped: a bad regex here is a bug.
        if (typeof regex === 'string')
            throw new Error(regex);
        out.push({ name: m.name, op: m.op, value: filled.text, regex });
    }
    return out;
}
/** Whether labels satisfy every matcher; a missing label reads as "" (as in Alertmanager). */
function matchesLabels(matchers, labels) {
    for (const m of matchers) {
        const value = Object.hasOwn(labels, m.name) ? labels[m.name] : '';
        const hit = m.regex ? m.regex.test(value) : value === m.value;
        if (hit !== (m.op === '=' || m.op === '=~'))
            return false;
    }
    return true;
}
/** `severity="critical"`: a matcher as Alertmanager writes it. */
function matcherText(m) {
    return `${m.name}${m.op}${JSON.stringify(m.value)}`;
}
//# sourceMappingURL=matcher.js.map