import type { GuardedRun } from '../../src/guard/guard-store';
import type { RedisStateStore } from '../../src/state/redis-state-store';
import { largeRun } from '../helpers/large-run';
import { bundleFrom } from '../helpers/bundle-from';
import { preflightWith } from '../helpers/fixtures';
import type { FakeSteadybit } from '../helpers/fake-steadybit';
import { fakeSteadybitEachTest } from '../helpers/fake-steadybit-each-test';
import { startRedis, type TestRedis } from '../state/redis-server';
import { freshPrefix, redisStore } from '../state/store-table';
import { cancels, guardUnderTest, runningOnFake, TestClock, type GuardUnderTest } from './guard-harness';
import { createGuardStore } from '../../src/guard/create-guard-store';

const BUSINESS_HOURS = `kind: Policy
name: business-hours
whileRunning: true
rules:
  - timeWindow: { timeZone: Europe/Berlin, allowed: [{ days: [Mon-Fri], from: "09:00", to: "17:00" }] }
`;
const AFTER_CLOSE = '2026-01-05T16:00:30Z';
const bundle = bundleFrom({ 'p.yaml': BUSINESS_HOURS });

let redis: TestRedis;
let fake: FakeSteadybit;
const stores: RedisStateStore[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.destroy();
});
fakeSteadybitEachTest((started) => {
  fake = started;
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

/** Two replicas sharing one redis-server (one key prefix), each with its own connection, guard and registry. */
async function twoReplicas(clock: TestClock): Promise<[GuardUnderTest, GuardUnderTest]> {
  const prefix = freshPrefix();
  const [a, b] = [await redisStore(redis, prefix), await redisStore(redis, prefix)];
  stores.push(a, b);
  return [
    guardUnderTest(bundle, clock, { fake, runs: createGuardStore(a), replica: 'replica-a' }),
    guardUnderTest(bundle, clock, { fake, runs: createGuardStore(b), replica: 'replica-b' }),
  ];
}

const run = (id: number) =>
  preflightWith((p) => {
    p.execution.id = id;
  });

test('two replicas that find the same run failing at the same tick cancel it exactly once', async () => {
  const clock = new TestClock(new Date(AFTER_CLOSE));
  const [a, b] = await twoReplicas(clock);
  runningOnFake(fake, 71);
  await a.runs.keep(
    { executionId: '71', decisionId: 'd-71', allowedAt: AFTER_CLOSE, revision: bundle.revision, payload: run(71) },
    clock.now().getTime() + 3600_000,
    clock.now().getTime(),
  );
  expect((await b.runs.runs(clock.now().getTime())).map((r) => r.executionId)).toEqual(['71']); // the other replica sees it
  await Promise.all([a.guard.tick(), b.guard.tick()]);
  await Promise.all([a.guard.tick(), b.guard.tick()]);
  expect(cancels(fake, 71)).toHaveLength(1);
  expect(a.stops.length + b.stops.length).toBe(1);
  expect(a.audit.length + b.audit.length).toBe(1);
});

// A replica killed mid-cancel (two service processes, SIGKILL): test/guard/guard-processes.int.test.ts.

test('a kept run is stored gzipped (a 2,000-target payload in a fraction of its JSON) and read back as it was; a run stored as JSON text is still read', async () => {
  const prefix = freshPrefix();
  const store = await redisStore(redis, prefix);
  stores.push(store);
  const runs = createGuardStore(store);
  const now = Date.parse(AFTER_CLOSE);
  const big: GuardedRun = {
    executionId: '73',
    decisionId: 'd-73',
    allowedAt: AFTER_CLOSE,
    revision: bundle.revision,
    payload: largeRun(run(73), 2000),
  };
  await runs.keep(big, now + 3600_000, now);
  const [key] = (await redis.cli('--scan', '--pattern', '*guard:run:73')).split('\n');
  const stored = Number(await redis.cli('STRLEN', key));
  expect(stored).toBeLessThan(JSON.stringify(big).length / 5);
  expect(await runs.runs(now)).toEqual([big]);

  // As a version before compression kept it: the JSON text itself.
  const small: GuardedRun = { ...big, executionId: '74', decisionId: 'd-74', payload: run(74) };
  await redis.cli('SET', key.replace(/73$/, '74'), JSON.stringify(small));
  await redis.cli('ZADD', key.replace(/run:73$/, 'runs'), String(now + 3600_000), '74');
  expect((await runs.runs(now)).map((r) => r.executionId).sort()).toEqual(['73', '74']);
  expect((await runs.runs(now)).find((r) => r.executionId === '74')).toEqual(small);
});
