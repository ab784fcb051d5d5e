import { loadConfig } from '../../src/service/config';
import { ConfigError } from '../../src/common/env-values';
import { parsePlatformConfig } from '../../src/platform/platform-config';

const base = { STEADYBIT_URL: 'https://platform.steadybit.com/', STEADYBIT_TOKEN: 'tok' };

test('unset STEADYBIT_URL: no platform connection, the service works from payloads and events', () => {
  expect(parsePlatformConfig({})).toBeUndefined();
  expect(loadConfig({}).platform).toBeUndefined();
});

test("defaults: bearer, a budget well under Steadybit's limit, a bounded preflight wait", () => {
  expect(parsePlatformConfig(base)).toEqual({
    url: 'https://platform.steadybit.com',
    token: { kind: 'value', token: 'tok' },
    authScheme: 'bearer',
    timeoutMs: 5000,
    rateBurst: 20,
    ratePerMinute: 12,
    syncIntervalMs: 30000,
    environmentsRefreshMs: 300000,
    nameMaxAgeMs: 3600000,
    preflightWaitMs: 2000,
  });
});

test('a token file and the legacy scheme', () => {
  expect(
    parsePlatformConfig({
      STEADYBIT_URL: 'http://steadybit.internal:8080',
      STEADYBIT_TOKEN_FILE: '/var/run/secrets/sb/token',
      STEADYBIT_AUTH_SCHEME: 'accessToken',
    }),
  ).toMatchObject({
    url: 'http://steadybit.internal:8080',
    token: { kind: 'file', path: '/var/run/secrets/sb/token' },
    authScheme: 'accessToken',
  });
});

test.each([
  [{ STEADYBIT_URL: 'https://x' }, 'no access token is: set STEADYBIT_TOKEN, or STEADYBIT_TOKEN_FILE'],
  [{ STEADYBIT_TOKEN: 'tok' }, 'STEADYBIT_URL is not'],
  [{ ...base, STEADYBIT_TOKEN_FILE: '/t' }, 'only one of STEADYBIT_TOKEN and STEADYBIT_TOKEN_FILE'],
  [{ ...base, STEADYBIT_URL: 'platform.steadybit.com' }, 'STEADYBIT_URL must be an http(s) address'],
  [{ ...base, STEADYBIT_URL: 'ftp://x' }, 'must start with https:// or http://'],
  [{ ...base, STEADYBIT_URL: 'https://user:pw@x' }, 'without credentials'],
  [{ ...base, STEADYBIT_AUTH_SCHEME: 'Bearer' }, 'STEADYBIT_AUTH_SCHEME must be one of bearer, accessToken'],
  [{ ...base, STEADYBIT_RATE_PER_MINUTE: '500' }, 'STEADYBIT_RATE_PER_MINUTE must be a whole number from 1 to 100'],
  [{ ...base, STEADYBIT_TOKEN: 'a b' }, 'STEADYBIT_TOKEN holds white space'],
  [
    { ...base, STEADYBIT_ENVIRONMENT_NAME_MAX_AGE_SECONDS: '120', STEADYBIT_ENVIRONMENTS_REFRESH_SECONDS: '300' },
    'must be longer than STEADYBIT_ENVIRONMENTS_REFRESH_SECONDS',
  ],
])('%j fails fast: %s', (env, message) => {
  expect(() => loadConfig(env)).toThrow(ConfigError);
  expect(() => loadConfig(env)).toThrow(message);
});

test('the token never appears in a configuration error', () => {
  try {
    loadConfig({ STEADYBIT_URL: 'nope', STEADYBIT_TOKEN: 'secret-token-value' });
  } catch (err) {
    expect(String(err)).not.toContain('secret-token-value');
  }
  expect.assertions(1);
});
