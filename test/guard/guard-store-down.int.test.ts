import { forgetEndedRuns } from '../../src/guard/forget-ended-runs';
import { KnownRuns } from '../../src/guard/known-runs';
import type { RedisStateStore } from '../../src/state/redis-state-store';
import { createLogger } from '../../src/common/logger';
import { bundleFrom } from '../helpers/bundle-from';
import { preflightWith } from '../helpers/fixtures';
import { waitFor } from '../helpers/server-process';
import type { FakeSteadybit } from '../helpers/fake-steadybit';
import { fakeSteadybitEachTest } from '../helpers/fake-steadybit-each-test';
import { startRedis, type TestRedis } from '../state/redis-server';
import { ended } from '../state/state-events';
import { freshPrefix, redisStore } from '../state/store-table';
import { cancels, guardUnderTest, runningOnFake, TestClock } from './guard-harness';
import { createGuardStore } from '../../src/guard/create-guard-store';

jest.setTimeout(30_000);

/** A policy that still holds: with the state store up nothing is stopped; with it away only onCannotJudge decides. */
const ALWAYS_OPEN = (whileRunning: string) => `kind: Policy
name: open-hours
whileRunning: ${whileRunning}
rules:
  - timeWindow: { timeZone: UTC, allowed: [{ from: "00:00", to: "24:00" }] }
`;
const NOW = '2026-01-05T10:00:00Z';
const run = (id: number) =>
  preflightWith((p) => {
    p.execution.id = id;
  });

let redis: TestRedis;
let fake: FakeSteadybit;
let store: RedisStateStore;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.destroy();
});
fakeSteadybitEachTest((started) => {
  fake = started;
});
beforeEach(async () => {
  store = await redisStore(redis, freshPrefix('guard-down'));
});
afterEach(async () => {
  await store.close();
  await redis.start(); // a test that failed midway may have left it stopped
});

/** A guard on the real Redis store, with its own list of the runs it knows, and the end events as the service wires them. */
function guardOnRedis(whileRunning: string) {
  const clock = new TestClock(new Date(NOW));
  const known = new KnownRuns();
  const g = guardUnderTest(bundleFrom({ 'p.yaml': ALWAYS_OPEN(whileRunning) }), clock, {
    fake,
    runs: createGuardStore(store),
    known,
  });
  const events = forgetEndedRuns(store, g.runs, createLogger('error', { silent: true }), known);
  return { g, clock, events };
}

/** Redis is stopped and the store knows it (commands fail at once). */
async function stopRedis(): Promise<void> {
  await redis.stop();
  await waitFor(async () => !store.health().available, 'the store to see Redis gone');
}

async function restartRedis(): Promise<void> {
  await redis.start();
  await waitFor(async () => store.health().available, 'the store to reconnect');
}

test('onCannotJudge: stop: with Redis stopped mid-run, the runs this replica knows are cancelled once each, without the lease', async () => {
  const { g, clock, events } = guardOnRedis('{ onCannotJudge: stop }');
  for (const id of [91, 93, 94]) runningOnFake(fake, id);
  g.allow(run(91), 'd-91');
  g.allow(run(93), 'd-93');
  await waitFor(async () => (await g.runs.runs(clock.now().getTime())).length === 2, 'both runs kept in Redis');
  await g.guard.tick();
  expect(cancels(fake)).toHaveLength(0); // the policy holds, the store answers

  await stopRedis();
  // Run 93 ends while Redis is away: the end event cannot be recorded, but this replica forgets the run.
  await expect(events.apply(ended(93, 'completed'), clock.now())).rejects.toThrow(/not connected/);
  g.allow(run(94), 'd-94'); // allowed while Redis is away: kept by this replica alone
  await waitFor(async () => g.logs.some((l) => l.includes('cannot keep an allowed run')), 'the keep to fail');

  await g.guard.tick();
  await g.guard.tick();
  expect(cancels(fake, 91)).toHaveLength(1);
  expect(cancels(fake, 94)).toHaveLength(1);
  expect(cancels(fake, 93)).toHaveLength(0);
  expect(g.stops.map((s) => s.executionId).sort()).toEqual(['91', '94']);
  expect(g.stops[0].stoppedBy).toEqual([
    expect.objectContaining({ policy: 'open-hours', action: 'stop', cannotJudge: true }),
  ]);
  expect(g.stops[0].reason).toMatch(/^the state store cannot be reached \(.*not connected.*\), so whether the run/);
  expect(g.audit.map((a) => [a.decision, a.stoppedBy])).toEqual([
    ['stopped', 'open-hours'],
    ['stopped', 'open-hours'],
  ]);
  expect(g.logs.some((l) => /runs this replica knows are judged from its own list/.test(l))).toBe(true);
  expect(g.guard.health().lastTick?.error).toMatch(/the runs in progress cannot be read/);

  // Redis is back (empty: it keeps nothing on disk here): what happened while it was away is written, nothing is cancelled again.
  await restartRedis();
  await g.guard.tick();
  await g.guard.tick();
  expect(cancels(fake)).toHaveLength(2);
  expect(await g.runs.runs(clock.now().getTime())).toEqual([]);
  expect(await g.runs.claim('91', 'replica-b', 30_000)).toBe('stopped');
  expect(await g.runs.claim('94', 'replica-b', 30_000)).toBe('stopped');
  expect(g.guard.health().lastTick?.error).toBeUndefined();
});

test('onCannotJudge: report (the default): with Redis stopped nothing is cancelled, each run is reported once; a run allowed meanwhile is kept when Redis is back', async () => {
  const { g, clock } = guardOnRedis('true');
  runningOnFake(fake, 95);
  runningOnFake(fake, 96);
  g.allow(run(95), 'd-95');
  await waitFor(async () => (await g.runs.runs(clock.now().getTime())).length === 1, 'the run kept in Redis');

  await stopRedis();
  g.allow(run(96), 'd-96');
  await waitFor(async () => g.logs.some((l) => l.includes('cannot keep an allowed run')), 'the keep to fail');
  await g.guard.tick();
  await g.guard.tick();
  expect(cancels(fake)).toHaveLength(0);
  expect(await g.metric('preflight_guard_reports_total', { policy: 'open-hours', kind: 'cannot_judge' })).toBe(2);
  const said = g.logs.filter((l) => /policy "open-hours" cannot judge run 9[56] while it runs; it goes on/.test(l));
  expect(said).toHaveLength(2);
  expect(said[0]).toMatch(/the state store cannot be reached/);
  expect(g.guard.health()).toMatchObject({ guardedRuns: 2 });

  await restartRedis();
  await g.guard.tick();
  expect((await g.runs.runs(clock.now().getTime())).map((r) => r.executionId)).toEqual(['96']);
  expect(cancels(fake)).toHaveLength(0);
});

test('a run stopped while the store answered is not cancelled again from the own list when the store goes away', async () => {
  const clock = new TestClock(new Date(NOW));
  const frozen = `kind: Policy
name: freeze
whileRunning: { onCannotJudge: stop }
rules:
  - timeWindow: { timeZone: UTC, deny: [{ start: "2026-01-05T00:00:00Z", end: "2026-01-06T00:00:00Z" }] }
`;
  const g = guardUnderTest(bundleFrom({ 'p.yaml': frozen }), clock, { fake, runs: createGuardStore(store) });
  runningOnFake(fake, 97);
  g.allow(run(97), 'd-97');
  await waitFor(async () => (await g.runs.runs(clock.now().getTime())).length === 1, 'the run kept in Redis');
  await g.guard.tick();
  expect(cancels(fake, 97)).toHaveLength(1);

  await stopRedis();
  await g.guard.tick();
  expect(cancels(fake, 97)).toHaveLength(1);
  expect(g.stops).toHaveLength(1);
  expect(g.guard.health()).toMatchObject({ guardedRuns: 0 });
});
