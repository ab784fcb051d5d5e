import type { RedisStateStore } from '../../src/state/redis-state-store';
import { waitFor } from '../helpers/server-process';
import { failoverUnderLoad, type LoadReport } from './failover-load';
import { startSentinels, type TestSentinels } from './redis-topologies';
import { concurrentEventsAtTwoInstances } from './shared-instances';
import { storeBehaviour } from './store-behaviour';
import { freshPrefix, redisStore, redisStores, TIMING } from './store-table';

let sentinels: TestSentinels | undefined;
const tableStores = redisStores(() => sentinels);
const open: RedisStateStore[] = [];
/**
 * A store as a service instance has it: in the failover tests, production's timeout (a loaded CI
 * machine gets 2 s, not 1); 240 events at once (each an fsync and a WAIT) get the table's 10 s.
 */
async function instance(prefix: string, timeoutMs = 2000) {
  if (!sentinels) throw new Error('the sentinels were not started');
  const store = await redisStore(sentinels, prefix, TIMING, timeoutMs);
  open.push(store);
  return store;
}
const measured: Record<string, LoadReport> = {};

beforeAll(async () => { sentinels = await startSentinels(); }, 60_000);
afterAll(async () => {
  // The recovery times docs/state.md quotes come from here.
  if (Object.keys(measured).length > 0) process.stdout.write(`Redis Sentinel failover measurements: ${JSON.stringify(measured, null, 1)}\n`);
  await tableStores.close();
  await Promise.all(open.map((s) => s.close()));
  await sentinels?.destroy();
});

async function scenario(name: string, disrupt: () => Promise<void>) {
  const prefix = freshPrefix('sentinel');
  const stores = [await instance(prefix), await instance(prefix)];
  const report = await failoverUnderLoad(stores, () => instance(prefix), disrupt, 'failover');
  measured[name] = report;
  expect([report.preflights.allowed, report.lost, report.events.other, report.preflights.other]).toEqual([0, [], 0, 0]);
  expect(report.preflights.denied).toBeGreaterThan(0);
}

describe('Redis Sentinel (a primary, a replica, three sentinels; AOF with fsync always)', () => {
  describe('the state behaviour table', () => storeBehaviour(tableStores.make));

  test('two service instances: concurrent events count exactly once; what one receives, the other decides on', async () => {
    const prefix = freshPrefix('sentinel');
    await concurrentEventsAtTwoInstances(await instance(prefix, 10_000), await instance(prefix, 10_000));
  });

  test('SENTINEL FAILOVER mid-load: no run allowed, no event lost', async () => {
    await scenario('SENTINEL FAILOVER', async () => {
      const before = await sentinels!.primary();
      expect(await sentinels!.sentinels[0].cli('sentinel', 'failover', sentinels!.name)).toBe('OK');
      await waitFor(async () => (await sentinels!.primary()) !== before, 'the sentinels to name the new primary', 30_000);
      await sentinels!.settled();
    });
  }, 90_000);

  test('the primary killed mid-load (SIGKILL), restarted after the failover: no run allowed, no event lost', async () => {
    await scenario('primary killed', async () => {
      const before = await sentinels!.primary();
      await before.stop('SIGKILL');
      await waitFor(async () => (await sentinels!.primary()) !== before, 'the sentinels to fail over', 30_000);
      await before.start();
      await sentinels!.settled();
    });
  }, 90_000);
});
