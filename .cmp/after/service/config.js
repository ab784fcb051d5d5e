"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_BODY_LIMIT = exports.ConfigError = void 0;
exports.loadConfig = loadConfig;
const audit_config_1 = require("../observability/audit-config");
const webhook_secrets_1 = require("../signature/webhook-secrets");
const archive_config_1 = require("../archive/archive-config");
const state_config_1 = require("../state/state-config");
const node_v8_1 = require("node:v8");
const bytes_1 = __importDefault(require("bytes"));
const env_values_1 = require("../common/env-values");
Object.defineProperty(exports, "ConfigError", { enumerable: true, get: function () { return env_values_1.ConfigError; } });
const body_budget_1 = require("../http/body-budget");
const platform_config_1 = require("../platform/platform-config");
const signals_config_1 = require("../signals/signals-config");
const notify_config_1 = require("../notify/notify-config");
const guard_config_1 = require("../guard/guard-config");
/**
 * The largest webhook body accepted unless BODY_LIMIT says otherwise: a run on 10,000 containers
 * with every attribute sent (targetAttributeIncludes `*`, ~15 each) is 7-10 MB
 * (docs/decisions/0006-body-limit-for-large-runs.md).
 */
exports.DEFAULT_BODY_LIMIT = '16mb';
const LOG_LEVELS = ['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly'];
const SIZE = /^\d+(b|kb|mb|gb)?$/i;
/**
 * BODY_BUDGET: a size, or `auto` (the default): an eighth of `heapLimitBytes`, V8's heap limit
 * (--max-old-space-size bounds it). Never below BODY_LIMIT: a body the limit accepts must fit.
 */
function bodyBudgetOf(env, bodyLimit, heapLimitBytes) {
    const raw = env.BODY_BUDGET ?? 'auto';
    if (raw !== 'auto' && !SIZE.test(raw))
        throw new env_values_1.ConfigError(`BODY_BUDGET must be auto, bytes or a size such as 64mb, got "${raw}"`);
    const budget = raw === 'auto' ? (0, body_budget_1.budgetFromHeap)(heapLimitBytes) : (bytes_1.default.parse(raw) ?? 0);
    const limit = bytes_1.default.parse(bodyLimit) ?? 0;
    if (budget < limit) {
        const from = raw === 'auto' ? `auto: an eighth of the V8 heap limit of ${bytes_1.default.format(heapLimitBytes)}` : raw;
        throw new env_values_1.ConfigError(`BODY_BUDGET (${bytes_1.default.format(budget)}, ${from}) is smaller than BODY_LIMIT (${bodyLimit}), so the largest body accepted could never be read: raise the heap bound (NODE_OPTIONS=--max-old-space-size), lower BODY_LIMIT or set BODY_BUDGET`);
    }
    return budget;
}
function loadConfig(env = process.env, heapLimitBytes = (0, node_v8_1.getHeapStatistics)().heap_size_limit) {
    const secretsRaw = env.WEBHOOK_SECRET;
    const secretFile = env.WEBHOOK_SECRET_FILE || undefined;
    if (secretsRaw !== undefined && secretFile !== undefined)
        throw new env_values_1.ConfigError('set only one of WEBHOOK_SECRET and WEBHOOK_SECRET_FILE');
    let secrets = secretsRaw === undefined ? [] : secretsRaw.split(',').map((s) => s.trim());
    if (secretsRaw !== undefined && secrets.some((s) => s === '')) {
        throw new env_values_1.ConfigError('WEBHOOK_SECRET holds an empty secret: give one secret, or several separated by commas (no empty entries), or unset it');
    }
    if (secretFile !== undefined)
        secrets = (0, webhook_secrets_1.readSecretFile)(secretFile);
    const bodyLimit = env.BODY_LIMIT ?? exports.DEFAULT_BODY_LIMIT;
    if (!/^\d+(b|kb|mb)?$/i.test(bodyLimit))
        throw new env_values_1.ConfigError(`BODY_LIMIT must be bytes or a size such as 512kb or 1mb, got "${bodyLimit}"`);
    const logLevel = env.LOG_LEVEL ?? 'info';
    if (!LOG_LEVELS.includes(logLevel))
        throw new env_values_1.ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
    const audit = (0, audit_config_1.parseAuditConfig)(env);
    if (!audit.ok)
        throw new env_values_1.ConfigError(audit.message);
    const state = (0, state_config_1.parseStateConfig)(env);
    return {
        revision: env.PREFLIGHT_GATE_REVISION,
        port: (0, env_values_1.envInteger)(env, 'PORT', 8080, 0, 65535),
        host: env.HOST ?? '0.0.0.0',
        policyDir: env.POLICY_DIR ?? './policies',
        secrets,
        secretFile,
        bodyLimit,
        bodyBudget: bodyBudgetOf(env, bodyLimit, heapLimitBytes),
        logLevel,
        shutdownTimeoutMs: (0, env_values_1.envInteger)(env, 'SHUTDOWN_TIMEOUT_MS', 25000, 0, 600000),
        policyWatch: (0, env_values_1.envFlag)(env, 'POLICY_WATCH', true),
        policyReloadDebounceMs: (0, env_values_1.envInteger)(env, 'POLICY_RELOAD_DEBOUNCE_MS', 300, 0, 60000),
        audit: audit.config,
        state,
        platform: (0, platform_config_1.parsePlatformConfig)(env),
        archive: (0, archive_config_1.parseArchiveConfig)(env),
        signals: (0, signals_config_1.parseSignalsConfig)(env),
        notify: (0, notify_config_1.parseNotifyConfig)(env),
        guard: (0, guard_config_1.parseGuardConfig)(env),
        playground: (0, env_values_1.envOneOf)(env, 'PLAYGROUND', ['on', 'off'], 'off') === 'on',
    };
}
//# sourceMappingURL=config.js.map