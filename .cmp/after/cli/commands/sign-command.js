"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.signCommand = signCommand;
const sign_1 = require("../../signature/sign");
const read_input_1 = require("../read-input");
const exit_codes_1 = require("../exit-codes");
const bad_input_error_1 = require("../../common/bad-input-error");
function secretFrom(opts, env) {
    if (opts.secret !== undefined && opts.secretEnv !== undefined)
        throw new bad_input_error_1.BadInputError('give --secret or --secret-env, not both');
    if (opts.secretEnv !== undefined) {
        const value = env[opts.secretEnv];
        if (value === undefined || value === '')
            throw new bad_input_error_1.BadInputError(`environment variable ${opts.secretEnv} (from --secret-env) is not set or empty`);
        return value;
    }
    if (opts.secret === undefined)
        throw new bad_input_error_1.BadInputError('give the webhook secret: --secret-env NAME (keeps it out of shell history) or --secret S');
    if (opts.secret === '')
        throw new bad_input_error_1.BadInputError('--secret is empty');
    return opts.secret;
}
/**
 * `preflight-gate sign --secret-env WEBHOOK_SECRET payload.json`: the `X-SB-Signature` value for
 * exactly these bytes (no trailing newline is added or removed), as Steadybit would send it.
 */
async function signCommand(file, opts, env, write) {
    const secret = secretFrom(opts, env);
    const bytes = file === undefined || file === '-' ? await (0, read_input_1.readStdin)('payload') : (0, read_input_1.readFileBytes)(file, 'payload');
    write(`${(0, sign_1.signatureHeader)(secret, bytes)}\n`);
    return exit_codes_1.EXIT.ok;
}
//# sourceMappingURL=sign-command.js.map