import type { RedisStateStore } from '../../src/state/redis-state-store';
import { failoverUnderLoad, type LoadReport } from './failover-load';
import { startCluster, type TestCluster } from './redis-topologies';
import { concurrentEventsAtTwoInstances } from './shared-instances';
import { storeBehaviour } from './store-behaviour';
import { freshPrefix, redisStore, redisStores, TIMING } from './store-table';

let cluster: TestCluster | undefined;
const tableStores = redisStores(() => cluster);
const open: RedisStateStore[] = [];
/**
 * A store as a service instance has it: in the failover tests, production's timeout (a loaded CI
 * machine gets 2 s, not 1); 240 events at once (each an fsync and a WAIT) get the table's 10 s.
 */
async function instance(prefix: string, timeoutMs = 2000) {
  if (!cluster) throw new Error('the cluster was not started');
  const store = await redisStore(cluster, prefix, TIMING, timeoutMs);
  open.push(store);
  return store;
}
const measured: Record<string, LoadReport> = {};

beforeAll(async () => { cluster = await startCluster(); }, 60_000);
afterAll(async () => {
  // The recovery times docs/state.md quotes come from here.
  if (Object.keys(measured).length > 0) process.stdout.write(`Redis Cluster failover measurements: ${JSON.stringify(measured, null, 1)}\n`);
  await tableStores.close();
  await Promise.all(open.map((s) => s.close()));
  await cluster?.destroy();
});

/** Fails the slot of `prefix` over while two instances answer; every answer and every event checked. */
async function scenario(name: string, disrupt: (prefix: string) => Promise<void>) {
  const prefix = freshPrefix('cluster');
  const stores = [await instance(prefix), await instance(prefix)];
  const report = await failoverUnderLoad(stores, () => instance(prefix), () => disrupt(prefix), 'failover');
  measured[name] = report;
  expect([report.preflights.allowed, report.lost, report.events.other, report.preflights.other]).toEqual([0, [], 0, 0]);
  expect(report.preflights.denied).toBeGreaterThan(0);
}

describe('Redis Cluster (3 primaries, 3 replicas, AOF with fsync always)', () => {
  describe('the state behaviour table', () => storeBehaviour(tableStores.make));

  test('two service instances: concurrent events count exactly once; what one receives, the other decides on', async () => {
    const prefix = freshPrefix('cluster');
    await concurrentEventsAtTwoInstances(await instance(prefix, 10_000), await instance(prefix, 10_000));
  });

  test('a manual failover (CLUSTER FAILOVER on the replica) mid-load: no run allowed, no event lost', async () => {
    await scenario('CLUSTER FAILOVER', async (prefix) => {
      const { slot, replica } = await cluster!.ownerOf(`{${prefix}}killswitch`);
      expect(await replica.cli('cluster', 'failover')).toBe('OK');
      await cluster!.settled(slot);
    });
  }, 90_000);

  test('the primary killed mid-load (SIGKILL), restarted after its replica took over: no run allowed, no event lost', async () => {
    await scenario('primary killed', async (prefix) => {
      const { slot, primary, replica } = await cluster!.ownerOf(`{${prefix}}killswitch`);
      await primary.stop('SIGKILL');
      const promoted = async () => (await replica.cli('role')).startsWith('master');
      await waitUntil(promoted, 'the replica to take over');
      await primary.start();
      await cluster!.settled(slot);
    });
  }, 90_000);

  test('a resharding mid-load (the slot migrated key by key to another primary): no run allowed, no event lost', async () => {
    await scenario('resharding', async (prefix) => {
      const { slot, primary: from, primaryId: fromId } = await cluster!.ownerOf(`{${prefix}}killswitch`);
      const to = (await cluster!.primaries()).find((p) => p.id !== fromId)!;
      await to.node.cli('cluster', 'setslot', String(slot), 'importing', fromId);
      await from.cli('cluster', 'setslot', String(slot), 'migrating', to.id);
      for (;;) {
        const keys = (await from.cli('cluster', 'getkeysinslot', String(slot), '10')).split('\n').filter(Boolean);
        if (keys.length === 0) break;
        await from.cli('migrate', '127.0.0.1', String(to.node.port), '', '0', '5000', 'keys', ...keys);
      }
      for (const p of await cluster!.primaries()) await p.node.cli('cluster', 'setslot', String(slot), 'node', to.id);
      await cluster!.settled(slot);
    });
  }, 90_000);
});

async function waitUntil(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 30_000;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
