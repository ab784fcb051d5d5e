"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseStrictJsonText = parseStrictJsonText;
const field_path_1 = require("../validation/field-path");
const duplicate_keys_1 = require("./duplicate-keys");
const json_syntax_error_1 = require("./json-syntax-error");
/** Where and why, on one line: V8's message can quote the text with its raw line breaks. */
function syntaxProblem(text, err) {
    const found = (0, json_syntax_error_1.jsonSyntaxError)(text);
    if (found) {
        const { line, col, reason } = found;
        return {
            ok: false,
            problem: 'syntax',
            message: `is not valid JSON: ${reason} at line ${line}, column ${col}`,
            at: { line, col },
            reason,
        };
    }
    const reason = err.message.replace(/\r?\n/g, '\\n');
    return { ok: false, problem: 'syntax', message: `is not valid JSON: ${reason}`, reason };
}
/**
 * JSON text parsed as the service parses a body once it is known to be UTF-8 (parse-strict-json.ts):
 * a key given twice is refused with its path, a syntax error says where and why. The playground page
 * parses the payload it edits with this too. `quotesInText`: the `"` of the text, when the caller
 * counted them from its bytes (mayHaveDuplicateKeys).
 */
function parseStrictJsonText(text, quotesInText) {
    let value;
    try {
        value = JSON.parse(text);
    }
    catch (err) {
        return syntaxProblem(text, err);
    }
    if ((0, duplicate_keys_1.mayHaveDuplicateKeys)(text, value, quotesInText)) {
        const duplicate = (0, duplicate_keys_1.findDuplicateKey)(text);
        if (duplicate) {
            return {
                ok: false,
                problem: 'duplicate-key',
                message: `is ambiguous: the key ${(0, field_path_1.pathText)(duplicate.path)} is given twice (JSON parsers disagree on which one counts); give each key once`,
            };
        }
    }
    return { ok: true, value };
}
//# sourceMappingURL=parse-strict-json-text.js.map