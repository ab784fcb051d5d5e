"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.readFileBytes = readFileBytes;
exports.parseJson = parseJson;
exports.readStdin = readStdin;
exports.policyDirArg = policyDirArg;
exports.parseNow = parseNow;
const iso_time_1 = require("../policy/time/iso-time");
const node_fs_1 = require("node:fs");
const parse_strict_json_1 = require("../payload/parse-strict-json");
const bad_input_error_1 = require("../common/bad-input-error");
/** The bytes of a file, or a BadInputError that names it and says why it cannot be read. */
function readFileBytes(file, what) {
    try {
        return (0, node_fs_1.readFileSync)(file);
    }
    catch (err) {
        const code = err.code;
        const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : err.message;
        throw new bad_input_error_1.BadInputError(`cannot read ${what} ${file}: ${why}`);
    }
}
/**
 * Parses JSON read from `file` as the service parses a body (parse-strict-json.ts): invalid UTF-8,
 * a key given twice or a syntax error is a usage error that names the file and the path (a syntax
 * error as `file:line:col: ...`, on one line).
 */
function parseJson(bytes, file, what) {
    const parsed = (0, parse_strict_json_1.parseStrictJson)(bytes);
    if (parsed.ok)
        return parsed.value;
    if (parsed.problem === 'syntax' && parsed.at)
        throw new bad_input_error_1.BadInputError(`${file === '-' ? 'stdin' : file}:${parsed.at.line}:${parsed.at.col}: ${what} is not valid JSON: ${parsed.reason}`);
    throw new bad_input_error_1.BadInputError(`${what} ${file} ${parsed.message}`);
}
/** All of stdin; refuses an interactive terminal rather than waiting for input forever. */
async function readStdin(what) {
    if (process.stdin.isTTY)
        throw new bad_input_error_1.BadInputError(`no ${what}: give a file, or pipe it on stdin`);
    const chunks = [];
    for await (const chunk of process.stdin)
        chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    return Buffer.concat(chunks);
}
/** The policy directory a command works on: the argument, else POLICY_DIR, else ./policies. */
function policyDirArg(dir, env) {
    const chosen = dir ?? (env.POLICY_DIR || './policies');
    let isDir = false;
    try {
        isDir = (0, node_fs_1.statSync)(chosen).isDirectory();
    }
    catch (err) {
        const why = err.code === 'ENOENT' ? 'does not exist' : `cannot be read: ${err.message}`;
        throw new bad_input_error_1.BadInputError(`policy directory ${chosen} ${why}${dir === undefined ? ' (give a directory, or set POLICY_DIR)' : ''}`);
    }
    if (!isDir)
        throw new bad_input_error_1.BadInputError(`${chosen} is not a directory: give the directory that holds the policy YAML files`);
    return chosen;
}
/** `--now 2026-03-02T10:00:00Z` -> a Date; anything else is a usage error. */
function parseNow(value, fallback) {
    if (value === undefined)
        return fallback();
    const date = (0, iso_time_1.parseIsoTime)(value);
    if (date === undefined) {
        throw new bad_input_error_1.BadInputError(`--now must be an ISO 8601 time such as 2026-03-02T10:00:00Z, got "${value}"`);
    }
    return date;
}
//# sourceMappingURL=read-input.js.map