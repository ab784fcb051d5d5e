"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.readPlaygroundInput = readPlaygroundInput;
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Checks the shape of a decoded share link; the message names the field to fix. */
function readPlaygroundInput(value) {
    if (!isObject(value))
        return { ok: false, message: 'the link does not hold a JSON object' };
    const { policies, payload, now, facts } = value;
    if (!isObject(policies))
        return { ok: false, message: '"policies" must be an object of file name -> YAML text' };
    const notText = Object.keys(policies).find((name) => typeof policies[name] !== 'string');
    if (notText !== undefined)
        return { ok: false, message: `"policies"."${notText}" must be the file's YAML text` };
    if (payload === undefined)
        return { ok: false, message: '"payload" is missing' };
    if (typeof now !== 'string')
        return { ok: false, message: '"now" must be an ISO 8601 time, e.g. 2026-03-02T10:00:00Z' };
    return { ok: true, input: { policies: policies, payload, now, facts: facts ?? {} } };
}
//# sourceMappingURL=playground-input.js.map