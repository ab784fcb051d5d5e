import { parseAuditConfig, type AuditConfig } from '../observability/audit-config';
import { readSecretFile } from '../signature/webhook-secrets';
import { parseArchiveConfig, type ArchiveConfig } from '../archive/archive-config';
import { parseStateConfig, type StateConfig } from '../state/state-config';
import { getHeapStatistics } from 'node:v8';
import bytes from 'bytes';
import { ConfigError, envFlag, envInteger, envOneOf } from '../common/env-values';
import { budgetFromHeap } from '../http/body-budget';
import { parsePlatformConfig, type PlatformConfig } from '../platform/platform-config';
import { parseSignalsConfig } from '../signals/signals-config';
import type { SignalsConfig } from '../signals/signal-source';
import { parseNotifyConfig } from '../notify/notify-config';
import type { NotifyConfig } from '../notify/target-config';
import { parseGuardConfig, type GuardConfig } from '../guard/guard-config';

export { ConfigError };

/** Environment variables -> a typed, validated Config. Fails fast with the variable to fix. */
export interface Config {
  /** PREFLIGHT_GATE_REVISION: the source revision of this build (the Dockerfile sets it), for preflight_gate_build_info. */
  revision?: string;
  port: number;
  host: string;
  policyDir: string;
  secrets: string[];
  /** WEBHOOK_SECRET_FILE: the secrets, one per line, re-read while running (`secrets` holds what start-up read). */
  secretFile?: string;
  bodyLimit: string;
  /** BODY_BUDGET in bytes: request bodies read or decided at once (default `auto`: an eighth of V8's heap limit). */
  bodyBudget: number;
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
  /** NOTIFY_WEBHOOK_URL, NOTIFY_WEBHOOK_SECRET, NOTIFY_TARGETS_FILE, ... (docs/notifications.md). */
  notify: NotifyConfig;
  /** GUARD_INTERVAL_SECONDS, GUARD_LEASE_SECONDS: guarding runs in progress (docs/guard.md). */
  guard: GuardConfig;
  /** PLAYGROUND=on: serve the playground page at /playground/ (docs/playground.md); off by default. */
  playground: boolean;
}

/**
 * The largest webhook body accepted unless BODY_LIMIT says otherwise: a run on 10,000 containers
 * with every attribute sent (targetAttributeIncludes `*`, ~15 each) is 7-10 MB
 * (docs/decisions/0006-body-limit-for-large-runs.md).
 */
export const DEFAULT_BODY_LIMIT = '16mb';

const LOG_LEVELS = ['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly'];

const SIZE = /^\d+(b|kb|mb|gb)?$/i;

/**
 * BODY_BUDGET: a size, or `auto` (the default): an eighth of `heapLimitBytes`, V8's heap limit
 * (--max-old-space-size bounds it). Never below BODY_LIMIT: a body the limit accepts must fit.
 */
function bodyBudgetOf(env: NodeJS.ProcessEnv, bodyLimit: string, heapLimitBytes: number): number {
  const raw = env.BODY_BUDGET ?? 'auto';
  if (raw !== 'auto' && !SIZE.test(raw))
    throw new ConfigError(`BODY_BUDGET must be auto, bytes or a size such as 64mb, got "${raw}"`);
  const budget = raw === 'auto' ? budgetFromHeap(heapLimitBytes) : (bytes.parse(raw) ?? 0);
  const limit = bytes.parse(bodyLimit) ?? 0;
  if (budget < limit) {
    const from = raw === 'auto' ? `auto: an eighth of the V8 heap limit of ${bytes.format(heapLimitBytes)}` : raw;
    throw new ConfigError(
      `BODY_BUDGET (${bytes.format(budget)}, ${from}) is smaller than BODY_LIMIT (${bodyLimit}), so the largest body accepted could never be read: raise the heap bound (NODE_OPTIONS=--max-old-space-size), lower BODY_LIMIT or set BODY_BUDGET`,
    );
  }
  return budget;
}

export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  heapLimitBytes = getHeapStatistics().heap_size_limit,
): Config {
  const secretsRaw = env.WEBHOOK_SECRET;
  const secretFile = env.WEBHOOK_SECRET_FILE || undefined;
  if (secretsRaw !== undefined && secretFile !== undefined)
    throw new ConfigError('set only one of WEBHOOK_SECRET and WEBHOOK_SECRET_FILE');
  let secrets = secretsRaw === undefined ? [] : secretsRaw.split(',').map((s) => s.trim());
  if (secretsRaw !== undefined && secrets.some((s) => s === '')) {
    throw new ConfigError(
      'WEBHOOK_SECRET holds an empty secret: give one secret, or several separated by commas (no empty entries), or unset it',
    );
  }
  if (secretFile !== undefined) secrets = readSecretFile(secretFile);
  const bodyLimit = env.BODY_LIMIT ?? DEFAULT_BODY_LIMIT;
  if (!/^\d+(b|kb|mb)?$/i.test(bodyLimit))
    throw new ConfigError(`BODY_LIMIT must be bytes or a size such as 512kb or 1mb, got "${bodyLimit}"`);
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  const audit = parseAuditConfig(env);
  if (!audit.ok) throw new ConfigError(audit.message);
  const state = parseStateConfig(env);
  return {
    revision: env.PREFLIGHT_GATE_REVISION,
    port: envInteger(env, 'PORT', 8080, 0, 65535),
    host: env.HOST ?? '0.0.0.0',
    policyDir: env.POLICY_DIR ?? './policies',
    secrets,
    secretFile,
    bodyLimit,
    bodyBudget: bodyBudgetOf(env, bodyLimit, heapLimitBytes),
    logLevel,
    shutdownTimeoutMs: envInteger(env, 'SHUTDOWN_TIMEOUT_MS', 25000, 0, 600000),
    policyWatch: envFlag(env, 'POLICY_WATCH', true),
    policyReloadDebounceMs: envInteger(env, 'POLICY_RELOAD_DEBOUNCE_MS', 300, 0, 60000),
    audit: audit.config,
    state,
    platform: parsePlatformConfig(env),
    archive: parseArchiveConfig(env),
    signals: parseSignalsConfig(env),
    notify: parseNotifyConfig(env),
    guard: parseGuardConfig(env),
    playground: envOneOf(env, 'PLAYGROUND', ['on', 'off'], 'off') === 'on',
  };
}
