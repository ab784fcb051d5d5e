"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseStateConfig = parseStateConfig;
const env_values_1 = require("../common/env-values");
const built_in_policies_1 = require("../policy/compile/built-in-policies");
const redis_config_1 = require("./redis-config");
/** The settings of docs/state.md; a bad value is a ConfigError naming the variable. */
function parseStateConfig(env) {
    const redis = (0, redis_config_1.parseRedisConfig)(env);
    const exceptionUsesFile = env.EXCEPTION_USES_FILE?.trim() || undefined;
    if (redis && exceptionUsesFile)
        throw new env_values_1.ConfigError('EXCEPTION_USES_FILE is set with Redis: the uses are counted in Redis, shared by every replica; unset EXCEPTION_USES_FILE');
    return {
        redis,
        ...(exceptionUsesFile ? { exceptionUsesFile } : {}),
        onUnavailable: (0, env_values_1.envOneOf)(env, 'STATE_UNAVAILABLE', ['deny', 'allow'], 'deny'),
        emergencyStop: (0, built_in_policies_1.emergencyStopSetting)(env),
        executionTtlMs: (0, env_values_1.envInteger)(env, 'EXECUTION_TTL_SECONDS', 14400, 60, 7 * 86400) * 1000,
        eventToleranceMs: (0, env_values_1.envInteger)(env, 'EVENT_TOLERANCE_SECONDS', 900, 1, 86400) * 1000,
        timeoutMs: (0, env_values_1.envInteger)(env, 'STATE_TIMEOUT_MS', 1000, 50, 10000),
    };
}
//# sourceMappingURL=state-config.js.map