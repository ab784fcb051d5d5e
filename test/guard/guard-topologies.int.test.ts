import type { RedisStateStore } from '../../src/state/redis-state-store';
import { bundleFrom } from '../helpers/bundle-from';
import { preflightWith } from '../helpers/fixtures';
import { startFakeSteadybit, type FakeSteadybit } from '../helpers/fake-steadybit';
import { startCluster, startSentinels, type TestTopology } from '../state/redis-topologies';
import { freshPrefix, redisStore } from '../state/store-table';
import { cancels, guardUnderTest, runningOnFake, TestClock } from './guard-harness';
import { createGuardStore } from '../../src/guard/create-guard-store';

jest.setTimeout(120_000);

const bundle = bundleFrom({
  'p.yaml':
    'kind: Policy\nname: business-hours\nwhileRunning: true\nrules:\n  - timeWindow: { timeZone: Europe/Berlin, allowed: [{ days: [Mon-Fri], from: "09:00", to: "17:00" }] }\n',
});
const AFTER_CLOSE = '2026-01-05T16:00:30Z';

describe.each([
  ['Redis Cluster', startCluster],
  ['Redis Sentinel', startSentinels],
] as Array<[string, () => Promise<TestTopology>]>)("%s: the guard's runs and leases", (_name, start) => {
  let topology: TestTopology;
  let fake: FakeSteadybit;
  const stores: RedisStateStore[] = [];
  beforeAll(async () => {
    [topology, fake] = await Promise.all([start(), startFakeSteadybit()]);
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await fake.stop();
    await topology.destroy();
  });

  test('two replicas see the same runs and cancel a failing run exactly once', async () => {
    const prefix = freshPrefix('guard');
    const [a, b] = [await redisStore(topology, prefix), await redisStore(topology, prefix)];
    stores.push(a, b);
    const clock = new TestClock(new Date(AFTER_CLOSE));
    const ga = guardUnderTest(bundle, clock, { fake, runs: createGuardStore(a), replica: 'a' });
    const gb = guardUnderTest(bundle, clock, { fake, runs: createGuardStore(b), replica: 'b' });
    runningOnFake(fake, 101);
    const payload = preflightWith((p) => {
      p.execution.id = 101;
    });
    await ga.runs.keep(
      { executionId: '101', decisionId: 'd', allowedAt: AFTER_CLOSE, revision: bundle.revision, payload },
      clock.now().getTime() + 3600_000,
      clock.now().getTime(),
    );
    expect((await gb.runs.runs(clock.now().getTime())).map((r) => r.executionId)).toEqual(['101']);
    await Promise.all([ga.guard.tick(), gb.guard.tick()]);
    await Promise.all([ga.guard.tick(), gb.guard.tick()]);
    expect(cancels(fake, 101)).toHaveLength(1);
    expect(ga.stops.length + gb.stops.length).toBe(1);
    expect(await gb.runs.runs(clock.now().getTime())).toEqual([]);
  });
});
