"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.BadInputError = void 0;
exports.readSettings = readSettings;
const env_values_1 = require("./env-values");
/**
 * Bad input to an operation (a missing file, bad JSON, a flag without its value, an archive that
 * cannot be read): the message says what to fix. Thrown by replay, approvals, prove and the CLI's
 * commands alike; the CLI answers it with exit 2 (cli/exit-codes.ts).
 */
class BadInputError extends Error {
    constructor(message) {
        super(message);
        this.name = 'BadInputError';
    }
}
exports.BadInputError = BadInputError;
/** Reads settings for an operation: a bad variable is bad input to it (the ConfigError's message). */
function readSettings(read) {
    try {
        return read();
    }
    catch (err) {
        if (err instanceof env_values_1.ConfigError)
            throw new BadInputError(err.message);
        throw err;
    }
}
//# sourceMappingURL=bad-input-error.js.map