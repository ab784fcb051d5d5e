"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.jsonSyntaxError = jsonSyntaxError;
const jsonc_parser_1 = require("jsonc-parser");
// jsonc-parser's ParseErrorCode values (an ambient const enum, which isolatedModules cannot read).
const REASONS = {
    1: 'unexpected character',
    2: 'malformed number',
    3: 'a property name in double quotes was expected',
    4: 'a value was expected',
    5: 'a colon was expected',
    6: 'a comma was expected',
    7: 'a comma or } was expected',
    8: 'a comma or ] was expected',
    9: 'nothing may follow the JSON value',
    10: 'comments are not JSON',
    11: 'a comment is never closed',
    12: 'a string is never closed',
    13: 'malformed number',
    14: 'a \\u escape needs four hex digits',
    15: 'unknown escape sequence in a string',
    16: 'a control character (a tab or a line break) must be escaped inside a string',
};
function position(text, offset) {
    const before = text.slice(0, offset);
    const lineStart = before.lastIndexOf('\n') + 1;
    return { line: before.split('\n').length, col: offset - lineStart + 1 };
}
/**
 * The first syntax error of text JSON.parse refused, found with jsonc-parser in strict mode (no
 * comments, no trailing commas): V8's own message differs between Node versions, may quote the text
 * with its raw line breaks and, for an unexpected token, gives no position at all. Only called on
 * the error path, never for a valid body.
 */
function jsonSyntaxError(text) {
    const errors = [];
    (0, jsonc_parser_1.parse)(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    const first = errors[0];
    if (first === undefined)
        return undefined;
    let reason = REASONS[first.error] ?? 'not JSON';
    const char = text[first.offset];
    if (first.error === 1 && char !== undefined)
        reason = `unexpected ${JSON.stringify(char)}`;
    return { ...position(text, first.offset), reason };
}
//# sourceMappingURL=json-syntax-error.js.map