"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.compilePromQuery = compilePromQuery;
exports.resolvePromQuery = resolvePromQuery;
const placeholder_text_1 = require("./placeholder-text");
/** The value as the contents of a PromQL double-quoted string (Go escapes). */
const quoteEscape = (value) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
/**
 * Compiles a query at load time. A placeholder outside a double-quoted string is refused: its value
 * could change the expression itself; inside one it is escaped (and regex-escaped after =~ or !~).
 */
function compilePromQuery(source) {
    if (source.trim() === '')
        return 'the query is empty';
    const text = (0, placeholder_text_1.parsePlaceholderText)(source);
    if (typeof text === 'string')
        return text;
    const regexParts = new Set();
    let quote;
    let before = '';
    for (let i = 0; i < text.parts.length; i++) {
        const part = text.parts[i];
        if (typeof part !== 'string') {
            if (!quote)
                return `placeholder {{${part.placeholder}}} must sit inside a double-quoted label value, e.g. {namespace="{{${part.placeholder}}}"}`;
            if (quote.regex)
                regexParts.add(i);
            continue;
        }
        for (let j = 0; j < part.length; j++) {
            const c = part[j];
            if (quote) {
                if (c === '\\')
                    j++;
                else if (c === '"')
                    quote = undefined;
            }
            else if (c === '"')
                quote = { regex: /[=!]~\s*$/.test(before + part.slice(0, j)) };
        }
        before = (before + part).slice(-8);
    }
    if (quote)
        return 'the query has a double-quoted string that is not closed';
    return { text, regexParts };
}
/** The query for one run, placeholders filled and escaped, or the placeholder the run has no value for. */
function resolvePromQuery(query, values) {
    return (0, placeholder_text_1.fillText)(query.text, values, (value, i) => quoteEscape(query.regexParts.has(i) ? (0, placeholder_text_1.escapeRegex)(value) : value));
}
//# sourceMappingURL=prom-query.js.map