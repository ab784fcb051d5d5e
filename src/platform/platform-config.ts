import { ConfigError, envInteger, envOneOf } from '../common/env-values';

/** `bearer`: `Authorization: Bearer <token>` (current platforms); `accessToken`: the legacy form older on-prem versions need. */
export type AuthScheme = 'bearer' | 'accessToken';

/** Where the access token comes from: the variable itself, or a file re-read when it changes (secret rotation). */
export type TokenSetting = { kind: 'value'; token: string } | { kind: 'file'; path: string };

/** Settings of the Steadybit Platform API connection (docs/platform-api.md); absent when STEADYBIT_URL is unset. */
export interface PlatformConfig {
  /** STEADYBIT_URL without a trailing slash, e.g. `https://platform.steadybit.com`. */
  url: string;
  token: TokenSetting;
  authScheme: AuthScheme;
  /** STEADYBIT_TIMEOUT_MS (default 5000): the longest one HTTP call may take. */
  timeoutMs: number;
  /** STEADYBIT_RATE_BURST (default 20) and STEADYBIT_RATE_PER_MINUTE (default 12): this service's share of the tenant's limit. */
  rateBurst: number;
  ratePerMinute: number;
  /** STEADYBIT_SYNC_INTERVAL_SECONDS (default 30): emergency stop and runs are read again this often. */
  syncIntervalMs: number;
  /** STEADYBIT_ENVIRONMENTS_REFRESH_SECONDS (default 300): the environment list is read again this often. */
  environmentsRefreshMs: number;
  /** STEADYBIT_ENVIRONMENT_NAME_MAX_AGE_SECONDS (default 3600): a cached name older than this is not used. */
  nameMaxAgeMs: number;
  /** STEADYBIT_PREFLIGHT_WAIT_MS (default 2000): the longest a preflight waits for the API before using what is cached. */
  preflightWaitMs: number;
}

function baseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(
      `STEADYBIT_URL must be an http(s) address such as https://platform.steadybit.com, got "${raw}"`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ConfigError(`STEADYBIT_URL must start with https:// or http://, got "${raw}"`);
  if (url.search || url.hash || url.username || url.password)
    throw new ConfigError(
      'STEADYBIT_URL must be the platform address only, without credentials, query or fragment (the token goes in STEADYBIT_TOKEN or STEADYBIT_TOKEN_FILE)',
    );
  return url.toString().replace(/\/+$/, '');
}

function tokenSetting(env: NodeJS.ProcessEnv): TokenSetting {
  const value = env.STEADYBIT_TOKEN;
  const file = env.STEADYBIT_TOKEN_FILE;
  if (value && file) throw new ConfigError('set only one of STEADYBIT_TOKEN and STEADYBIT_TOKEN_FILE');
  if (file) return { kind: 'file', path: file };
  if (value) {
    if (value.trim() !== value || /\s/.test(value))
      throw new ConfigError('STEADYBIT_TOKEN holds white space: give the access token alone');
    return { kind: 'value', token: value };
  }
  throw new ConfigError(
    'STEADYBIT_URL is set but no access token is: set STEADYBIT_TOKEN, or STEADYBIT_TOKEN_FILE to a file holding it',
  );
}

/** The Platform API settings, or undefined when STEADYBIT_URL is unset (the service then works from payloads and events alone). */
export function parsePlatformConfig(env: NodeJS.ProcessEnv): PlatformConfig | undefined {
  const raw = env.STEADYBIT_URL;
  // Every setting is checked even while STEADYBIT_URL is unset: a typo shows before the feature is on.
  const settings = platformSettings(env);
  if (raw === undefined || raw === '') {
    if (env.STEADYBIT_TOKEN || env.STEADYBIT_TOKEN_FILE)
      throw new ConfigError(
        'STEADYBIT_TOKEN or STEADYBIT_TOKEN_FILE is set but STEADYBIT_URL is not: set the platform address too (e.g. https://platform.steadybit.com), or unset the token',
      );
    return undefined;
  }
  return { url: baseUrl(raw), token: tokenSetting(env), ...settings };
}

function platformSettings(env: NodeJS.ProcessEnv): Omit<PlatformConfig, 'url' | 'token'> {
  const seconds = (name: string, fallback: number, min: number, max: number) =>
    envInteger(env, name, fallback, min, max) * 1000;
  const config = {
    authScheme: envOneOf<AuthScheme>(env, 'STEADYBIT_AUTH_SCHEME', ['bearer', 'accessToken'], 'bearer'),
    timeoutMs: envInteger(env, 'STEADYBIT_TIMEOUT_MS', 5000, 100, 60000),
    rateBurst: envInteger(env, 'STEADYBIT_RATE_BURST', 20, 1, 100),
    ratePerMinute: envInteger(env, 'STEADYBIT_RATE_PER_MINUTE', 12, 1, 100),
    syncIntervalMs: seconds('STEADYBIT_SYNC_INTERVAL_SECONDS', 30, 5, 3600),
    environmentsRefreshMs: seconds('STEADYBIT_ENVIRONMENTS_REFRESH_SECONDS', 300, 5, 86400),
    nameMaxAgeMs: seconds('STEADYBIT_ENVIRONMENT_NAME_MAX_AGE_SECONDS', 3600, 10, 7 * 86400),
    preflightWaitMs: envInteger(env, 'STEADYBIT_PREFLIGHT_WAIT_MS', 2000, 50, 30000),
  };
  if (config.nameMaxAgeMs <= config.environmentsRefreshMs) {
    throw new ConfigError(
      'STEADYBIT_ENVIRONMENT_NAME_MAX_AGE_SECONDS must be longer than STEADYBIT_ENVIRONMENTS_REFRESH_SECONDS, or every name would expire between two refreshes',
    );
  }
  return config;
}
