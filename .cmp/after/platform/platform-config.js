"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parsePlatformConfig = parsePlatformConfig;
const env_values_1 = require("../common/env-values");
function baseUrl(raw) {
    let url;
    try {
        url = new URL(raw);
    }
    catch {
        throw new env_values_1.ConfigError(`STEADYBIT_URL must be an http(s) address such as https://platform.steadybit.com, got "${raw}"`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
        throw new env_values_1.ConfigError(`STEADYBIT_URL must start with https:// or http://, got "${raw}"`);
    if (url.search || url.hash || url.username || url.password)
        throw new env_values_1.ConfigError('STEADYBIT_URL must be the platform address only, without credentials, query or fragment (the token goes in STEADYBIT_TOKEN or STEADYBIT_TOKEN_FILE)');
    return url.toString().replace(/\/+$/, '');
}
function tokenSetting(env) {
    const value = env.STEADYBIT_TOKEN;
    const file = env.STEADYBIT_TOKEN_FILE;
    if (value && file)
        throw new env_values_1.ConfigError('set only one of STEADYBIT_TOKEN and STEADYBIT_TOKEN_FILE');
    if (file)
        return { kind: 'file', path: file };
    if (value) {
        if (value.trim() !== value || /\s/.test(value))
            throw new env_values_1.ConfigError('STEADYBIT_TOKEN holds white space: give the access token alone');
        return { kind: 'value', token: value };
    }
    throw new env_values_1.ConfigError('STEADYBIT_URL is set but no access token is: set STEADYBIT_TOKEN, or STEADYBIT_TOKEN_FILE to a file holding it');
}
/** The Platform API settings, or undefined when STEADYBIT_URL is unset (the service then works from payloads and events alone). */
function parsePlatformConfig(env) {
    const raw = env.STEADYBIT_URL;
    // Every setting is checked even while STEADYBIT_URL is unset: a typo shows before the feature is on.
    const settings = platformSettings(env);
    if (raw === undefined || raw === '') {
        if (env.STEADYBIT_TOKEN || env.STEADYBIT_TOKEN_FILE)
            throw new env_values_1.ConfigError('STEADYBIT_TOKEN or STEADYBIT_TOKEN_FILE is set but STEADYBIT_URL is not: set the platform address too (e.g. https://platform.steadybit.com), or unset the token');
        return undefined;
    }
    return { url: baseUrl(raw), token: tokenSetting(env), ...settings };
}
function platformSettings(env) {
    const seconds = (name, fallback, min, max) => (0, env_values_1.envInteger)(env, name, fallback, min, max) * 1000;
    const config = {
        authScheme: (0, env_values_1.envOneOf)(env, 'STEADYBIT_AUTH_SCHEME', ['bearer', 'accessToken'], 'bearer'),
        timeoutMs: (0, env_values_1.envInteger)(env, 'STEADYBIT_TIMEOUT_MS', 5000, 100, 60000),
        rateBurst: (0, env_values_1.envInteger)(env, 'STEADYBIT_RATE_BURST', 20, 1, 100),
        ratePerMinute: (0, env_values_1.envInteger)(env, 'STEADYBIT_RATE_PER_MINUTE', 12, 1, 100),
        syncIntervalMs: seconds('STEADYBIT_SYNC_INTERVAL_SECONDS', 30, 5, 3600),
        environmentsRefreshMs: seconds('STEADYBIT_ENVIRONMENTS_REFRESH_SECONDS', 300, 5, 86400),
        nameMaxAgeMs: seconds('STEADYBIT_ENVIRONMENT_NAME_MAX_AGE_SECONDS', 3600, 10, 7 * 86400),
        preflightWaitMs: (0, env_values_1.envInteger)(env, 'STEADYBIT_PREFLIGHT_WAIT_MS', 2000, 50, 30000),
    };
    if (config.nameMaxAgeMs <= config.environmentsRefreshMs) {
        throw new env_values_1.ConfigError('STEADYBIT_ENVIRONMENT_NAME_MAX_AGE_SECONDS must be longer than STEADYBIT_ENVIRONMENTS_REFRESH_SECONDS, or every name would expire between two refreshes');
    }
    return config;
}
//# sourceMappingURL=platform-config.js.map