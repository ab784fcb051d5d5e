import type { PlatformConfig } from '../../src/platform/platform-config';

/**
 * Platform API settings pointing at the fake Steadybit (`startFakeSteadybit`): a test token, a
 * 2-second timeout, a budget of 20 calls and 60 a minute, the service's other defaults; `over` changes some.
 */
export const fakePlatformConfig = (fake: { url: string }, over: Partial<PlatformConfig> = {}): PlatformConfig => ({
  url: fake.url,
  token: { kind: 'value', token: 'test-token' },
  authScheme: 'bearer',
  timeoutMs: 2000,
  rateBurst: 20,
  ratePerMinute: 60,
  syncIntervalMs: 30000,
  environmentsRefreshMs: 300000,
  nameMaxAgeMs: 3600000,
  preflightWaitMs: 2000,
  ...over,
});
