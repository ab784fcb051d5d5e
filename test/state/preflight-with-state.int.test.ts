import { at, disengagedPayload, engagedPayload, executionPayload, T0 } from './state-events';
import { guardrailApp } from './guardrail-app';
import { storeTable, TIMING } from './store-table';

const table = storeTable();
beforeAll(() => table.setup());
afterAll(() => table.cleanup());

const CONCURRENCY = {
  'p.yaml': 'kind: Policy\nname: one-at-a-time\nrules:\n  - concurrency: {maxRunning: 1, per: environment}\n',
};
const COOLDOWN = {
  'p.yaml':
    'kind: Policy\nname: pause-after-failure\nrules:\n  - cooldown: {after: [FAILED, ERRORED], duration: 30m}\n',
};
const QUOTA = { 'p.yaml': 'kind: Policy\nname: ten-a-day\nrules:\n  - quota: {maxRuns: 2, per: team, window: 1d}\n' };

describe.each(table.stores)('preflight with state in the %s store', (_name, make) => {
  test('the emergency stop denies every run by default, saying who engaged it and when; disengaging allows again', async () => {
    const g = guardrailApp(await make());
    expect((await g.preflight(1)).status).toBe(200);
    expect((await g.event(engagedPayload(at(T0 - 60_000, 5), 'jane'))).status).toBe(202);
    const denied = await g.preflight(1);
    expect(denied.status).toBe(403);
    expect(denied.body.message).toContain(
      '[emergency-stop (built-in)] the emergency stop is engaged (by jane since 2026-01-05T09:59:00.000000005Z); no run may start until it is disengaged',
    );
    expect((await g.event(disengagedPayload(at(T0 - 30_000), at(T0 - 60_000, 5)))).status).toBe(202);
    expect((await g.preflight(1)).status).toBe(200);
  });

  test('a replayed disengagement does not unlock the engagement that followed it', async () => {
    const g = guardrailApp(await make());
    await g.event(engagedPayload(at(T0 - 90_000)));
    await g.event(disengagedPayload(at(T0 - 60_000), at(T0 - 90_000)));
    await g.event(engagedPayload(at(T0 - 30_000), 'ann'));
    const replay = await g.event(disengagedPayload(at(T0 - 60_000), at(T0 - 90_000), at(T0 - 10_000)));
    expect([replay.status, replay.body.message]).toEqual([
      200,
      expect.stringContaining('ignored: the state it would change is newer'),
    ]);
    expect((await g.preflight(1)).body.message).toContain('engaged (by ann');
  });

  test('EMERGENCY_STOP_POLICY=off leaves the emergency stop to the policies', async () => {
    const g = guardrailApp(await make(), { emergencyStop: 'off' });
    await g.event(engagedPayload(at(T0 - 60_000)));
    expect((await g.preflight(1)).status).toBe(200);
    // The engagement is still recorded, and a policy of the set can act on it.
    const withPolicy = guardrailApp(await make(), {
      emergencyStop: 'off',
      files: { 'stop.yaml': 'kind: Policy\nname: team-stop\nrules:\n  - emergencyStop: {}\n' },
    });
    expect((await withPolicy.event(engagedPayload(at(T0 - 60_000), 'jane'))).status).toBe(202);
    const denied = await withPolicy.preflight(1);
    expect([denied.status, denied.body.message]).toEqual([
      403,
      expect.stringContaining('[team-stop] the emergency stop is engaged (by jane'),
    ]);
    expect(denied.body.message).not.toContain('(built-in)');
  });

  test('concurrency: a second run in the environment is denied, the run itself and other environments are not', async () => {
    const g = guardrailApp(await make(), { files: CONCURRENCY });
    await g.event(executionPayload('created', 10, { env: 'prod', time: at(T0 - 60_000) }));
    expect((await g.preflight(10)).status).toBe(200);
    const second = await g.preflight(11);
    expect([second.status, second.body.message]).toEqual([
      403,
      expect.stringContaining('[one-at-a-time] environment prod already has 1 running execution (at most 1): 10'),
    ]);
    expect((await g.preflight(11, 'staging')).status).toBe(200);
    await g.event(executionPayload('completed', 10, { time: at(T0 - 1000) }));
    expect((await g.preflight(11)).status).toBe(200);
  });

  test('a run that never reports its end stops blocking its environment after the TTL (clock moved)', async () => {
    let nowMs = T0;
    const g = guardrailApp(await make(), { files: CONCURRENCY, clock: () => new Date(nowMs) });
    await g.event(executionPayload('created', 12, { env: 'prod', time: at(T0 - 1000) }));
    expect((await g.preflight(13)).status).toBe(403);
    nowMs = T0 - 1000 + TIMING.executionTtlMs + 1;
    expect((await g.preflight(13)).status).toBe(200);
  });

  test('cool-down: a failed run pauses its environment', async () => {
    const g = guardrailApp(await make(), { files: COOLDOWN });
    await g.event(executionPayload('created', 20, { time: at(T0 - 120_000) }));
    await g.event(executionPayload('failed', 20, { time: at(T0 - 60_000) }));
    const res = await g.preflight(21);
    expect([res.status, res.body.message]).toEqual([
      403,
      expect.stringContaining(
        'environment prod is cooling down: execution 20 ended FAILED at 2026-01-05T09:59:00.000Z',
      ),
    ]);
    expect((await g.preflight(21, 'staging')).status).toBe(200);
  });

  test('quota: runs started per team in the window, the preflighted one not counted', async () => {
    const g = guardrailApp(await make(), { files: QUOTA });
    await g.event(executionPayload('created', 30, { time: at(T0 - 120_000) }));
    await g.event(executionPayload('created', 31, { time: at(T0 - 60_000) }));
    expect((await g.preflight(31)).status).toBe(200);
    const third = await g.preflight(32);
    expect([third.status, third.body.message]).toEqual([
      403,
      expect.stringContaining('team ADM started 2 runs in the last 1 day (quota 2)'),
    ]);
    expect((await g.preflight(32, 'prod', 'OPS')).status).toBe(200);
  });
});
