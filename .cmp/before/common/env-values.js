"use strict";
/** Reading one environment variable: unset or empty takes the default; anything else must be valid. */
Object.defineProperty(exports, "__esModule", { value: true });
exports.ConfigError = void 0;
exports.envInteger = envInteger;
exports.envFlag = envFlag;
exports.envOneOf = envOneOf;
/** A setting that cannot be used; the message names the variable and what it must be. */
class ConfigError extends Error {
    constructor(message) {
        super(message);
        this.name = 'ConfigError';
    }
}
exports.ConfigError = ConfigError;
function envInteger(env, name, fallback, min, max) {
    const raw = env[name];
    if (raw === undefined || raw === '')
        return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
        throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
    }
    return value;
}
function envFlag(env, name, fallback) {
    const raw = env[name];
    if (raw === undefined || raw === '')
        return fallback;
    if (raw === 'true' || raw === 'false')
        return raw === 'true';
    throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}
function envOneOf(env, name, values, fallback) {
    const raw = env[name];
    if (raw === undefined || raw === '')
        return fallback;
    if (!values.includes(raw))
        throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
    return raw;
}
//# sourceMappingURL=env-values.js.map