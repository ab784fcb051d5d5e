import { parseAuditConfig, type AuditConfig } from './observability/audit-config';
import { parseArchiveConfig, type ArchiveConfig } from './archive/archive-config';
import { parseStateConfig, type StateConfig } from './state/state-config';
import { ConfigError, envFlag, envInteger } from './env-values';
import { parsePlatformConfig, type PlatformConfig } from './platform/platform-config';
import { parseSignalsConfig } from './signals/signals-config';
import type { SignalsConfig } from './signals/signal-source';

export { ConfigError };

/** Environment variables -> a typed, validated Config. Fails fast with the variable to fix. */
export interface Config {
  /** PREFLIGHT_GATE_REVISION: the source revision of this build (the Dockerfile sets it), for preflight_gate_build_info. */
  revision?: string;
  port: number;
  host: string;
  policyDir: string;
  secrets: string[];
  bodyLimit: string;
  logLevel: string;
  shutdownTimeoutMs: number;
  /** POLICY_WATCH (default true): reload when POLICY_DIR changes; SIGHUP reloads either way. */
  policyWatch: boolean;
  /** POLICY_RELOAD_DEBOUNCE_MS (default 300): quiet time after a burst of file changes. */
  policyReloadDebounceMs: number;
  /** AUDIT_LOG, AUDIT_LOG_LEVEL, AUDIT_REDACT_ATTRIBUTES (docs/audit-log.md). */
  audit: AuditConfig;
  /** REDIS_URL, STATE_UNAVAILABLE, EMERGENCY_STOP_POLICY, EXECUTION_TTL_SECONDS, ... (docs/state.md). */
  state: StateConfig;
  /** STEADYBIT_URL, STEADYBIT_TOKEN(_FILE), ... (docs/platform-api.md); undefined: payloads and events alone. */
  platform?: PlatformConfig;
  /** DECISION_ARCHIVE and its settings (docs/replay.md). */
  archive: ArchiveConfig;
  /** ALERTMANAGER_URL, PROMETHEUS_URL, SIGNAL_SOURCES_FILE, SIGNAL_CACHE_TTL_MS, ... (docs/signals.md). */
  signals: SignalsConfig;
}

/**
 * The largest webhook body accepted unless BODY_LIMIT says otherwise: a run on 10,000 containers
 * with every attribute sent (targetAttributeIncludes `*`, ~15 each) is 7-10 MB
 * (docs/decisions/0006-body-limit-for-large-runs.md).
 */
export const DEFAULT_BODY_LIMIT = '16mb';

const LOG_LEVELS = ['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly'];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const secretsRaw = env.WEBHOOK_SECRET;
  const secrets = secretsRaw === undefined ? [] : secretsRaw.split(',').map((s) => s.trim());
  if (secretsRaw !== undefined && secrets.some((s) => s === '')) {
    throw new ConfigError('WEBHOOK_SECRET holds an empty secret: give one secret, or several separated by commas (no empty entries), or unset it');
  }
  const bodyLimit = env.BODY_LIMIT ?? DEFAULT_BODY_LIMIT;
  if (!/^\d+(b|kb|mb)?$/i.test(bodyLimit)) throw new ConfigError(`BODY_LIMIT must be bytes or a size such as 512kb or 1mb, got "${bodyLimit}"`);
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  const audit = parseAuditConfig(env);
  if (!audit.ok) throw new ConfigError(audit.message);
  const state = parseStateConfig(env);
  return {
    revision: env.PREFLIGHT_GATE_REVISION,
    port: envInteger(env, 'PORT', 8080, 0, 65535),
    host: env.HOST ?? '0.0.0.0',
    policyDir: env.POLICY_DIR ?? './policies',
    secrets,
    bodyLimit,
    logLevel,
    shutdownTimeoutMs: envInteger(env, 'SHUTDOWN_TIMEOUT_MS', 25000, 0, 600000),
    policyWatch: envFlag(env, 'POLICY_WATCH', true),
    policyReloadDebounceMs: envInteger(env, 'POLICY_RELOAD_DEBOUNCE_MS', 300, 0, 60000),
    audit: audit.config,
    state,
    platform: parsePlatformConfig(env),
    archive: parseArchiveConfig(env),
    signals: parseSignalsConfig(env),
  };
}
