"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseStrictJson = parseStrictJson;
const node_buffer_1 = require("node:buffer");
const field_path_1 = require("../validation/field-path");
const duplicate_keys_1 = require("./duplicate-keys");
const parse_strict_json_text_1 = require("./parse-strict-json-text");
const quote_bytes_1 = require("./quote-bytes");
const where = (path) => (path.length === 0 ? 'at the top level' : `at ${(0, field_path_1.pathText)(path)}`);
/** The offset of the first byte that is not UTF-8 (bytes are assumed to hold one). */
function firstInvalidByte(bytes, lossy) {
    // A lossy decode turns each invalid sequence into U+FFFD; a U+FFFD written as EF BF BD is genuine.
    let byteOffset = 0;
    let from = 0;
    for (let at = lossy.indexOf('\uFFFD'); at !== -1; at = lossy.indexOf('\uFFFD', at + 1)) {
        byteOffset += Buffer.byteLength(lossy.slice(from, at));
        if (!(bytes[byteOffset] === 0xef && bytes[byteOffset + 1] === 0xbf && bytes[byteOffset + 2] === 0xbd))
            return { byteOffset, charOffset: at };
        byteOffset += 3;
        from = at + 1;
    }
    return { byteOffset: bytes.length, charOffset: lossy.length };
}
function invalidUtf8(bytes) {
    const lossy = bytes.toString('utf8');
    const { byteOffset, charOffset } = firstInvalidByte(bytes, lossy);
    const byte = bytes[byteOffset]?.toString(16).toUpperCase().padStart(2, '0');
    const path = (0, duplicate_keys_1.pathAt)(lossy, charOffset);
    return {
        ok: false,
        problem: 'utf8',
        message: `is not valid UTF-8: byte 0x${byte ?? '??'} at offset ${byteOffset}, ${where(path)}; send the payload as UTF-8`,
    };
}
/**
 * JSON.parse, refusing what it would silently guess: bytes that are not UTF-8 (it would decode
 * them lossily) and an object that names a key twice (it would keep the last). Steadybit sends
 * neither, so both are refused with the JSON path, and one parser's reading never differs from
 * another's. The duplicate scan runs only when a cheap count says a key may repeat
 * (docs/decisions/0010-strict-json-parsing.md has the measurements).
 */
function parseStrictJson(bytes) {
    if (!(0, node_buffer_1.isUtf8)(bytes))
        return invalidUtf8(bytes);
    return (0, parse_strict_json_text_1.parseStrictJsonText)(bytes.toString('utf8'), (0, quote_bytes_1.quoteBytes)(bytes));
}
//# sourceMappingURL=parse-strict-json.js.map