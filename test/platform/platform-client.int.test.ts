import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { createPlatformClient, type ClientDeps } from '../../src/platform/platform-client';
import type { PlatformConfig } from '../../src/platform/platform-config';
import { createPlatformMetrics } from '../../src/platform/platform-metrics';
import {
  getEnvironments,
  getKillswitch,
  getPropertyDefinitions,
  searchExecutions,
} from '../../src/platform/platform-endpoints';
import { environment, executionItem, type FakeSteadybit } from '../helpers/fake-steadybit';
import { fakeSteadybitEachTest } from '../helpers/fake-steadybit-each-test';
import { fakePlatformConfig } from '../helpers/fake-platform-config';

let fake: FakeSteadybit;
// Every 200 the fake gave is what the spec says Steadybit gives.
const steadybit = fakeSteadybitEachTest((started) => {
  fake = started;
});

const config = (over: Partial<PlatformConfig> = {}): PlatformConfig => fakePlatformConfig(fake, over);
const client = (over: Partial<PlatformConfig> = {}, deps: ClientDeps = {}) =>
  createPlatformClient(config(over), { random: () => 0, ...deps });
const soon = (ms = 10000) => Date.now() + ms;

describe('authentication', () => {
  test('sends Authorization: Bearer <token> by default', async () => {
    fake.environments = [environment('2f0b0ab4-7c52-4b8e-9a0e-2d0a3b7a1c11', 'production')];
    const res = await getEnvironments(client(), soon());
    expect(res).toEqual({ ok: true, value: [{ id: '2f0b0ab4-7c52-4b8e-9a0e-2d0a3b7a1c11', name: 'production' }] });
    expect(fake.requests[0].authorization).toBe('Bearer test-token');
  });

  test('STEADYBIT_AUTH_SCHEME=accessToken sends the legacy form, which an older on-prem platform requires', async () => {
    fake.platform = 'legacy';
    expect(await getKillswitch(client(), soon())).toMatchObject({
      ok: false,
      failure: { outcome: 'unauthorized', status: 401 },
    });
    const res = await getKillswitch(client({ authScheme: 'accessToken' }), soon());
    expect(res).toEqual({ ok: true, value: { active: false } });
    expect(fake.requests.map((r) => r.authorization)).toEqual(['Bearer test-token', 'accessToken test-token']);
  });

  test('a rejected token is an unauthorized failure naming the setting, not retried, and the token is never in the message', async () => {
    const res = await getKillswitch(client({ token: { kind: 'value', token: 'wrong-token' } }), soon());
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.failure).toMatchObject({ outcome: 'unauthorized', status: 401 });
    expect(res.failure.message).toContain('STEADYBIT_AUTH_SCHEME=bearer');
    expect(res.failure.message).not.toContain('wrong-token');
    expect(fake.requests).toHaveLength(1);
  });

  test('a token file is read again at each call: a rotated secret is used without a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-token-'));
    try {
      const file = join(dir, 'token');
      writeFileSync(file, 'old-token\n');
      fake.tokens = new Set(['old-token']);
      const c = client({ token: { kind: 'file', path: file } });
      expect((await getKillswitch(c, soon())).ok).toBe(true);
      fake.tokens = new Set(['new-token']);
      writeFileSync(file, 'new-token\n');
      expect((await getKillswitch(c, soon())).ok).toBe(true);
      expect(fake.requests.map((r) => r.authorization)).toEqual(['Bearer old-token', 'Bearer new-token']);
      rmSync(file);
      // Mid-rotation the file may be missing for a moment: the last token read is used.
      expect((await getKillswitch(c, soon())).ok).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an unreadable token file with no token read before is a no_token failure: nothing is sent', async () => {
    const res = await getKillswitch(client({ token: { kind: 'file', path: '/nonexistent/token' } }), soon());
    expect(res).toEqual({
      ok: false,
      failure: {
        outcome: 'no_token',
        message: 'the token file /nonexistent/token (STEADYBIT_TOKEN_FILE) cannot be read (ENOENT)',
      },
    });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('a good API citizen', () => {
  test('a 429 is honoured: no call before RateLimit-Reset, then the answer', async () => {
    fake.faults.push({
      path: '/api/killswitch',
      status: 429,
      headers: {
        'ratelimit-limit': '100;w=15',
        'ratelimit-remaining': '0',
        'ratelimit-reset': '1',
        'retry-after': '1',
      },
      body: { message: 'Too Many Requests' },
    });
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
    };
    const res = await getKillswitch(client({}, { sleep }), soon());
    expect(res.ok).toBe(true);
    expect(fake.requests).toHaveLength(2);
    // The second call was held back for the reset (1 s, less the moments already gone).
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(900);
  });

  test('a 429 whose wait passes the deadline is a rate_limited failure, and later calls wait too', async () => {
    fake.faults.push({ status: 429, headers: { 'retry-after': '30' } });
    const c = client();
    const first = await getKillswitch(c, soon(2000));
    expect(first).toMatchObject({ ok: false, failure: { outcome: 'rate_limited', status: 429 } });
    const second = await getEnvironments(c, soon(2000));
    expect(second).toMatchObject({ ok: false, failure: { outcome: 'budget_exhausted' } });
    if (!second.ok) expect(second.failure.message).toMatch(/Steadybit asked to wait until .* \(429\)/);
    expect(fake.requests).toHaveLength(1);
  });

  test('the client-side budget holds calls back: a call that would wait past its deadline is not sent', async () => {
    const c = client({ rateBurst: 2, ratePerMinute: 1 });
    expect((await getKillswitch(c, soon())).ok).toBe(true);
    expect((await getKillswitch(c, soon())).ok).toBe(true);
    const third = await getKillswitch(c, soon(1000));
    expect(third).toMatchObject({ ok: false, failure: { outcome: 'budget_exhausted' } });
    expect(fake.requests).toHaveLength(2);
  });

  test("a burst against Steadybit's own limit: calls stop at the limit and wait for its reset", async () => {
    await steadybit.restart({ rateLimit: { burst: 3, refill: 3, windowMs: 1000 } });
    const c = client({ rateBurst: 100, ratePerMinute: 100 });
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await getKillswitch(c, soon()));
    expect(results.every((r) => r.ok)).toBe(true);
    // One 429 at the fourth call; the client then waited its reset and never hammered.
    expect(fake.answers.filter((a) => a.status === 429)).toHaveLength(1);
  });

  test('5xx and cut connections are retried with backoff; then the answer', async () => {
    fake.faults.push({ path: '/api/killswitch', status: 503 }, { path: '/api/killswitch', drop: true });
    const registry = new Registry();
    const res = await getKillswitch(client({}, { metrics: createPlatformMetrics(registry) }), soon());
    expect(res.ok).toBe(true);
    expect(fake.requests).toHaveLength(3);
    const calls = (await registry.getSingleMetric('preflight_platform_api_calls_total')?.get())?.values ?? [];
    const count = (outcome: string) =>
      calls.find((v) => v.labels.endpoint === 'killswitch' && v.labels.outcome === outcome)?.value;
    expect([count('server_error'), count('network_error'), count('ok')]).toEqual([1, 1, 1]);
  });

  test('a platform that keeps failing: a server_error failure after a bounded number of attempts', async () => {
    fake.down = true;
    const res = await getKillswitch(client(), soon());
    expect(res).toMatchObject({ ok: false, failure: { outcome: 'server_error', status: 503 } });
    expect(fake.requests).toHaveLength(4);
  });

  test('a slow answer times out at STEADYBIT_TIMEOUT_MS', async () => {
    fake.faults.push({ delayMs: 1500, times: 10 });
    const res = await getKillswitch(client({ timeoutMs: 200 }), soon(500));
    expect(res).toMatchObject({ ok: false, failure: { outcome: 'timeout' } });
  });

  test("no call outlives the caller's deadline, whatever the timeout setting", async () => {
    fake.faults.push({ delayMs: 1500, times: 10 });
    const res = await getKillswitch(client({ timeoutMs: 60000 }), soon(300));
    expect(res).toMatchObject({ ok: false, failure: { outcome: 'timeout' } });
    // Timed out at the deadline, and no retry was started past it.
    expect(fake.requests).toHaveLength(1);
  });
});

describe('paging', () => {
  test('the execution search pages with size 100 until nextPage is null', async () => {
    fake.executions = Array.from({ length: 250 }, (_, i) =>
      executionItem(i + 1, { state: 'RUNNING', created: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString() }),
    );
    const res = await searchExecutions(client(), { states: ['RUNNING'] }, soon());
    expect(res.ok && res.value.length).toBe(250);
    expect(fake.requests.map((r) => r.body)).toEqual(
      [0, 1, 2].map((page) => ({ states: ['RUNNING'], page, size: 100 })),
    );
  });

  test('property definitions page with ?page=N&size=100', async () => {
    fake.propertyDefinitions = Array.from({ length: 120 }, (_, i) => ({
      key: `P_${i}`,
      label: `p ${i}`,
      dataType: 'STRING',
      version: 0,
    }));
    const res = await getPropertyDefinitions(client(), soon());
    expect(res.ok && res.value.length).toBe(120);
    expect(fake.requests.map((r) => r.query.toString())).toEqual(['page=0&size=100', 'page=1&size=100']);
  });
});

describe('the fake rejects what the platform rejects', () => {
  const post = (body: unknown) =>
    fetch(`${fake.url}/api/experiments/executions`, {
      method: 'POST',
      headers: { authorization: 'Bearer test-token', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  test('a page size over the maximum of 100 is a 400', async () => {
    expect((await post({ page: 0, size: 101 })).status).toBe(400);
    expect((await post({ page: 0, size: 100 })).status).toBe(200);
    const definitions = (size: number) =>
      fetch(`${fake.url}/api/properties/definitions?page=0&size=${size}`, {
        headers: { authorization: 'Bearer test-token' },
      });
    expect((await definitions(101)).status).toBe(400);
    expect((await definitions(100)).status).toBe(200);
  });
  test.each([
    ['current', 'Bearer test-token', 200],
    ['current', 'accessToken test-token', 200],
    ['legacy', 'accessToken test-token', 200],
    ['legacy', 'Bearer test-token', 401],
    ['current', 'Basic test-token', 401],
    ['current', 'bearer-token test-token', 401],
    ['current', 'test-token', 401],
    ['current', 'Bearer other-token', 401],
    ['current', undefined, 401],
  ] as const)('a %s platform answers Authorization: %s with %i', async (platform, authorization, status) => {
    fake.platform = platform;
    const res = await fetch(`${fake.url}/api/killswitch`, {
      headers: authorization === undefined ? {} : { authorization },
    });
    expect(res.status).toBe(status);
  });
  test('the spec check catches an answer the platform would never give', async () => {
    fake.killswitch = { active: 'yes' };
    await getKillswitch(client(), soon());
    expect(fake.specProblems()).toEqual(['KillswitchAO/active must be boolean']);
    fake.answers.length = 0;
  });
});
