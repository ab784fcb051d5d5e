import { bundleFrom } from '../helpers/bundle-from';
import { preflightWith } from '../helpers/fixtures';
import { environment, type FakeSteadybit } from '../helpers/fake-steadybit';
import { fakePlatformConfig } from '../helpers/fake-platform-config';
import { createPlatformClient } from '../../src/platform/platform-client';
import { EnvironmentDirectory } from '../../src/platform/environment-directory';
import { fakeSteadybitEachTest } from '../helpers/fake-steadybit-each-test';
import { cancels, guardUnderTest, runningOnFake, TestClock } from './guard-harness';
import { NO_PLATFORM } from '../../src/guard/run-guard';
import { PERMISSION_UNKNOWN } from '../../src/guard/cancel-permission';

/** Monday 2026-01-05; business hours 09:00-17:00 Berlin (UTC+1) end at 16:00 UTC. */
const BUSINESS_HOURS = `kind: Policy
name: business-hours
whileRunning: true
rules:
  - timeWindow:
      timeZone: Europe/Berlin
      allowed: [{ name: business hours, days: [Mon-Fri], from: "09:00", to: "17:00" }]
`;
const BEFORE_CLOSE = '2026-01-05T15:59:00Z';
const AFTER_CLOSE = '2026-01-05T16:00:30Z';
const run = (id: number, teamKey = 'ADM') =>
  preflightWith((p) => {
    p.execution.id = id;
    p.execution.teamKey = teamKey;
  });

let fake: FakeSteadybit;
fakeSteadybitEachTest((started) => {
  fake = started;
});

describe('a time window that closes while a run is in progress', () => {
  test('the run allowed at 16:59 Berlin is cancelled at the first tick after 17:00, once', async () => {
    const clock = new TestClock(new Date(BEFORE_CLOSE));
    const g = guardUnderTest(bundleFrom({ 'p.yaml': BUSINESS_HOURS }), clock, { fake });
    runningOnFake(fake, 41);
    g.allow(run(41));
    await g.guard.tick();
    expect(cancels(fake)).toHaveLength(0);

    clock.set(AFTER_CLOSE);
    await g.guard.tick();
    await g.guard.tick();
    expect(cancels(fake, 41)).toHaveLength(1);
    expect(cancels(fake, 41)[0].authorization).toBe('Bearer test-token');
    expect(g.stops).toEqual([
      expect.objectContaining({ executionId: '41', policy: 'business-hours', allowedBy: 'd-allowed' }),
    ]);
    expect(g.stops[0].reason).toMatch(/business hours/);
    expect(await g.metric('preflight_guard_stops_total', { policy: 'business-hours' })).toBe(1);
    expect(g.audit).toEqual([
      expect.objectContaining({
        decision: 'stopped',
        status: 202,
        executionId: 41,
        stoppedBy: 'business-hours',
        allowedBy: 'd-allowed',
      }),
    ]);
    expect(g.audit[0].policies[0]).toMatchObject({ policy: 'business-hours', result: 'deny' });
    expect(g.logs.some((l) => /stopped run 41 .*policy "business-hours" no longer holds/.test(l))).toBe(true);
    expect(g.guard.health()).toMatchObject({ guardedPolicies: 1, canStop: true, guardedRuns: 0, stops: 1 });
  });

  test("the stop names the run's environment as Steadybit does (the Platform API's directory), or why it cannot", async () => {
    const PROD = '2f0b0ab4-7c52-4b8e-9a0e-2d0a3b7a1c11';
    const GONE = '9d1e0c55-3f6a-4b7e-8c2d-5a4b3c2d1e0f';
    fake.environments = [environment(PROD, 'production')];
    const directory = new EnvironmentDirectory(createPlatformClient(fakePlatformConfig(fake), { random: () => 0 }), {
      maxAgeMs: 3600_000,
      waitMs: 2000,
      minGapMs: 0,
    });
    const clock = new TestClock(new Date(BEFORE_CLOSE));
    // The guarded policy names no environment, so the judgement's facts hold no names: the directory tells them.
    const g = guardUnderTest(bundleFrom({ 'p.yaml': BUSINESS_HOURS }), clock, { fake, environments: directory });
    const inEnvironment = (id: number, env: string) =>
      preflightWith((p) => {
        p.execution.id = id;
        p.execution.environment = env;
      });
    runningOnFake(fake, 43);
    runningOnFake(fake, 44);
    g.allow(inEnvironment(43, PROD), 'd-43');
    g.allow(inEnvironment(44, GONE), 'd-44');
    clock.set(AFTER_CLOSE);
    await g.guard.tick();
    const byId = new Map(g.stops.map((s) => [s.executionId, s]));
    expect(byId.get('43')).toMatchObject({ environment: PROD, environmentName: 'production' });
    expect(byId.get('43')?.environmentNameUnknown).toBeUndefined();
    expect(byId.get('44')?.environmentName).toBeUndefined();
    expect(byId.get('44')?.environmentNameUnknown).toMatch(
      new RegExp(`^environment ${GONE} is not one of the 1 environments the Steadybit Platform API lists`),
    );
  });

  test('the stop takes the name the judgement read when its policies needed the names', async () => {
    const clock = new TestClock(new Date(BEFORE_CLOSE));
    const g = guardUnderTest(bundleFrom({ 'p.yaml': BUSINESS_HOURS }), clock, {
      fake,
      gather: async (_bundle, payload) => ({
        ok: true,
        facts: {
          environments: {
            [String(payload.execution.environment)]: { unknown: 'the Steadybit Platform API has not answered yet' },
          },
        },
      }),
    });
    runningOnFake(fake, 45);
    g.allow(run(45));
    clock.set(AFTER_CLOSE);
    await g.guard.tick();
    expect(g.stops).toEqual([
      expect.objectContaining({
        executionId: '45',
        environmentNameUnknown: 'the Steadybit Platform API has not answered yet',
      }),
    ]);
  });

  test('a run that ended before the window closed is not cancelled', async () => {
    const clock = new TestClock(new Date(BEFORE_CLOSE));
    const g = guardUnderTest(bundleFrom({ 'p.yaml': BUSINESS_HOURS }), clock, { fake });
    g.allow(run(42));
    await g.runs.forget('42'); // its end event (forget-ended-runs.ts)
    clock.set(AFTER_CLOSE);
    await g.guard.tick();
    expect(cancels(fake)).toHaveLength(0);
  });

  test('rules that cannot change during a run are not judged again', async () => {
    const clock = new TestClock(new Date(AFTER_CLOSE));
    const policy = `kind: Policy\nname: no-attacks\nwhileRunning: true\nrules:\n  - actions: { blocked: ["*"] }\n  - timeWindow: { timeZone: UTC, allowed: [{ from: "00:00", to: "24:00" }] }\n`;
    const g = guardUnderTest(bundleFrom({ 'p.yaml': policy }), clock, { fake });
    runningOnFake(fake, 43);
    g.allow(run(43));
    await g.guard.tick();
    expect(cancels(fake)).toHaveLength(0);
  });

  test('without a whileRunning policy in the set nothing is kept', async () => {
    const clock = new TestClock(new Date(BEFORE_CLOSE));
    const g = guardUnderTest(bundleFrom({ 'p.yaml': BUSINESS_HOURS.replace('whileRunning: true\n', '') }), clock, {
      fake,
    });
    g.allow(run(48));
    expect(await g.runs.runs(clock.now().getTime())).toEqual([]);
  });

  test('a policy without whileRunning is not judged again', async () => {
    const clock = new TestClock(new Date(AFTER_CLOSE));
    const g = guardUnderTest(bundleFrom({ 'p.yaml': BUSINESS_HOURS.replace('whileRunning: true\n', '') }), clock, {
      fake,
    });
    runningOnFake(fake, 44);
    g.allow(run(44));
    await g.guard.tick();
    expect(cancels(fake)).toHaveLength(0);
    expect(g.guard.health().guardedPolicies).toBe(0);
  });
});

describe('modes and cannot-judge', () => {
  test('warn and audit policies only report what they would stop, once per run', async () => {
    const clock = new TestClock(new Date(AFTER_CLOSE));
    const g = guardUnderTest(
      bundleFrom({ 'p.yaml': BUSINESS_HOURS.replace('whileRunning', 'mode: warn\nwhileRunning') }),
      clock,
      { fake },
    );
    runningOnFake(fake, 45);
    g.allow(run(45));
    await g.guard.tick();
    await g.guard.tick();
    expect(cancels(fake)).toHaveLength(0);
    expect(g.logs.filter((l) => /policy "business-hours" would stop run 45 \(mode warn/.test(l))).toHaveLength(1);
    expect(await g.metric('preflight_guard_reports_total', { policy: 'business-hours', kind: 'would_stop' })).toBe(1);
  });

  const ALERTS = (extra: string) =>
    `kind: Policy\nname: no-critical\nwhileRunning: ${extra}\nrules:\n  - alerts: { matchers: ['severity="critical"'] }\n`;

  test('a policy that cannot judge (its signal source is away) lets the run go on by default, and says so', async () => {
    const clock = new TestClock(new Date(AFTER_CLOSE));
    const g = guardUnderTest(bundleFrom({ 'p.yaml': ALERTS('true') }), clock, {
      fake,
      gather: async () => ({ ok: false, unavailable: { source: 'alertmanager', message: 'connection refused' } }),
    });
    runningOnFake(fake, 46);
    g.allow(run(46));
    await g.guard.tick();
    expect(cancels(fake)).toHaveLength(0);
    expect(
      g.logs.some((l) => /cannot judge run 46 .*goes on \(onCannotJudge: report\).*connection refused/.test(l)),
    ).toBe(true);
    expect(await g.metric('preflight_guard_reports_total', { policy: 'no-critical', kind: 'cannot_judge' })).toBe(1);
  });

  test('onCannotJudge: stop cancels a run it cannot judge', async () => {
    const clock = new TestClock(new Date(AFTER_CLOSE));
    const g = guardUnderTest(bundleFrom({ 'p.yaml': ALERTS('{ onCannotJudge: stop }') }), clock, { fake });
    runningOnFake(fake, 47);
    g.allow(run(47));
    await g.guard.tick();
    expect(cancels(fake, 47)).toHaveLength(1);
    expect(g.stops[0].stoppedBy[0]).toMatchObject({ policy: 'no-critical', cannotJudge: true, action: 'stop' });
  });
});

describe('the cancel', () => {
  const setUp = (id: number) => {
    const clock = new TestClock(new Date(AFTER_CLOSE));
    const g = guardUnderTest(bundleFrom({ 'p.yaml': BUSINESS_HOURS }), clock, { fake });
    g.allow(run(id));
    return g;
  };

  test('404 (the run is unknown or gone): nothing is stopped, and it is not asked again', async () => {
    const g = setUp(50);
    await g.guard.tick();
    await g.guard.tick();
    expect(fake.answers.filter((a) => a.path.endsWith('/cancel')).map((a) => a.status)).toEqual([404]);
    expect(g.stops).toEqual([]);
    expect(g.logs.some((l) => /run 50 had already ended .*404/.test(l))).toBe(true);
  });

  test('200 (already canceled, errored or completed): nothing is stopped twice', async () => {
    const g = setUp(51);
    runningOnFake(fake, 51);
    (fake.runs.get(51) as { state: string }).state = 'COMPLETED';
    await g.guard.tick();
    expect(fake.answers.filter((a) => a.path.endsWith('/cancel')).map((a) => a.status)).toEqual([200]);
    expect(g.stops).toEqual([]);
    expect(g.audit).toEqual([]);
  });

  test('429 with Retry-After: waits as asked, then cancels', async () => {
    const g = setUp(52);
    runningOnFake(fake, 52);
    fake.faults.push({ path: '/api/experiments/executions/52/cancel', status: 429, headers: { 'retry-after': '1' } });
    await g.guard.tick();
    expect(cancels(fake, 52)).toHaveLength(2);
    expect(g.stops).toHaveLength(1);
  });

  test('5xx: retried with backoff within the tick, then cancelled', async () => {
    const g = setUp(53);
    runningOnFake(fake, 53);
    fake.faults.push({ path: '/api/experiments/executions/53/cancel', status: 503, times: 2 });
    await g.guard.tick();
    expect(cancels(fake, 53)).toHaveLength(3);
    expect(g.stops).toHaveLength(1);
  });

  test('a cancel that keeps failing is counted, logged, and tried again at the next tick', async () => {
    const g = setUp(54);
    runningOnFake(fake, 54);
    fake.faults.push({ path: '/api/experiments/executions/54/cancel', status: 500, times: 4 });
    await g.guard.tick();
    expect(g.stops).toHaveLength(0);
    expect(await g.metric('preflight_guard_cancel_failures_total', { reason: 'server_error' })).toBe(1);
    expect(g.logs.some((l) => /run 54 must be stopped but the cancel failed \(HTTP 500/.test(l))).toBe(true);
    await g.guard.tick();
    expect(g.stops).toHaveLength(1);
  });

  test('a cancel that times out is a failure, tried again at the next tick', async () => {
    const g = setUp(55);
    runningOnFake(fake, 55);
    // No answer within STEADYBIT_TIMEOUT_MS (1 s here), four times: the platform never got to cancel it.
    fake.faults.push({ path: '/api/experiments/executions/55/cancel', delayMs: 1200, status: 504, times: 4 });
    await g.guard.tick();
    expect(await g.metric('preflight_guard_cancel_failures_total', { reason: 'timeout' })).toBe(1);
    fake.faults.length = 0;
    await g.guard.tick();
    expect(g.stops).toHaveLength(1);
  }, 20000);

  test('without the Platform API nothing can be stopped: said once as a warning, each run counted once, no error', async () => {
    const clock = new TestClock(new Date(AFTER_CLOSE));
    const g = guardUnderTest(bundleFrom({ 'p.yaml': BUSINESS_HOURS }), clock, { cancel: undefined });
    g.allow(run(56));
    g.allow(run(57));
    for (let i = 0; i < 3; i++) await g.guard.tick();
    expect(g.guard.health()).toMatchObject({ canStop: false, message: NO_PLATFORM, stops: 0 });
    expect(await g.metric('preflight_guard_reports_total', { policy: 'business-hours', kind: 'cannot_stop' })).toBe(2);
    const failures = (await g.registry.getSingleMetric('preflight_guard_cancel_failures_total')?.get())?.values ?? [];
    expect(failures.reduce((sum, v) => sum + v.value, 0)).toBe(0);
    expect(g.entries.filter((e) => e.level === 'error')).toEqual([]);
    const said = g.entries.filter((e) => e.message.includes(NO_PLATFORM));
    expect(said.map((e) => e.level)).toEqual(['warn', 'info']);
    expect(said[0].message).toMatch(/^guard: policy "business-hours" would stop run 56, but STEADYBIT_URL is not set/);
    expect(said[0].message).toContain('said once; every run it would stop is counted in preflight_guard_reports_total');
    expect(said[1].message).toMatch(/would stop run 57, but STEADYBIT_URL is not set/);
    expect(g.stops).toEqual([]);
    expect(g.audit).toEqual([]);
  });
});

describe('a token that may not cancel (401/403)', () => {
  const setUp = () =>
    guardUnderTest(bundleFrom({ 'p.yaml': BUSINESS_HOURS }), new TestClock(new Date(AFTER_CLOSE)), { fake });
  const cancelRefused = (id: number) =>
    fake.faults.push({ path: `/api/experiments/executions/${id}/cancel`, status: 403, times: 100 });

  test('before any cancel whether the token may cancel is unknown, and /readyz says why', () => {
    expect(setUp().guard.health()).toMatchObject({ canStop: 'unknown', message: PERMISSION_UNKNOWN });
  });

  test('a refused cancel makes canStop false with the reason, the run goes on, and a successful cancel makes it true again', async () => {
    const g = setUp();
    fake.cannotCancel.add('test-token');
    runningOnFake(fake, 58);
    g.allow(run(58));
    await g.guard.tick();
    await g.guard.tick();
    expect(cancels(fake, 58)).toHaveLength(2);
    expect(g.stops).toEqual([]);
    expect(fake.runs.get(58)).toMatchObject({ state: 'RUNNING' });
    const health = g.guard.health();
    expect(health).toMatchObject({ canStop: false, refusedTeams: ['ADM'], stops: 0 });
    expect(health.message).toMatch(
      /^the token may not cancel runs of team ADM: the Platform API refused to cancel run 58 at 2026-01-05T16:00:30.000Z \(HTTP 403.*Forbidden/,
    );
    expect(health.message).toContain("A team token of the run's team or an admin token may");
    expect(await g.metric('preflight_guard_cancel_failures_total', { reason: 'unauthorized' })).toBe(2);
    const errors = g.entries.filter((e) => e.level === 'error').map((e) => e.message);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(
      /run 58 must be stopped but the cancel failed \(HTTP 403.*may not cancel runs of team ADM/,
    );
    // The change is said once, not at every tick.
    const warned = g.entries.filter((e) => e.level === 'warn' && /may not cancel runs of team ADM/.test(e.message));
    expect(warned).toHaveLength(1);

    // The token is given the permission: the next tick stops the run, and the guard can stop again.
    fake.cannotCancel.clear();
    await g.guard.tick();
    expect(g.stops).toHaveLength(1);
    expect(g.guard.health()).toMatchObject({ canStop: true, stops: 1 });
    expect(g.guard.health()).not.toHaveProperty('message');
    expect(g.logs.some((l) => /the token may cancel runs of team ADM again/.test(l))).toBe(true);
  });

  test("kept per team: another team's accepted cancel does not make it true, a 404 tells nothing, and 200 does", async () => {
    const g = setUp();
    runningOnFake(fake, 59);
    runningOnFake(fake, 60);
    cancelRefused(59);
    g.allow(run(59, 'ADM'));
    g.allow(run(60, 'DEV'));
    await g.guard.tick();
    expect(g.stops.map((s) => s.executionId)).toEqual(['60']);
    expect(g.guard.health()).toMatchObject({ canStop: false, refusedTeams: ['ADM'] });
    expect(g.guard.health().message).toMatch(/^the token may not cancel runs of team ADM: .*run 59/);

    // The run is gone for the platform (404): still refused for ADM.
    fake.faults.length = 0;
    fake.runs.delete(59);
    await g.guard.tick();
    expect(fake.answers.filter((a) => a.path === '/api/experiments/executions/59/cancel').map((a) => a.status)).toEqual(
      [403, 404],
    );
    expect(g.guard.health()).toMatchObject({ canStop: false, refusedTeams: ['ADM'] });

    // A later ADM run the platform answers 200 for (it had already ended): the token may cancel ADM's runs.
    fake.runs.set(61, { id: 61, state: 'COMPLETED', started: '2026-01-05T08:00:00Z' });
    g.allow(run(61, 'ADM'));
    await g.guard.tick();
    expect(g.guard.health()).toMatchObject({ canStop: true });
    expect(g.guard.health()).not.toHaveProperty('refusedTeams');
  });

  test('401 (the token itself is refused) is a refusal too', async () => {
    const g = setUp();
    fake.tokens.clear();
    runningOnFake(fake, 62);
    g.allow(run(62));
    await g.guard.tick();
    expect(g.guard.health()).toMatchObject({ canStop: false, refusedTeams: ['ADM'] });
    expect(g.guard.health().message).toMatch(/refused to cancel run 62 .*\(HTTP 401/);
  });
});
