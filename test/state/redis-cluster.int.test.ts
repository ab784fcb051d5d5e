import { waitFor } from '../helpers/server-process';
import { startCluster } from './redis-topologies';
import { concurrentEventsAtTwoInstances } from './shared-instances';
import { storeBehaviour } from './store-behaviour';
import { freshPrefix } from './store-table';
import { topologySuite } from './topology-suite';

const suite = topologySuite('Redis Cluster', startCluster);
const cluster = () => suite.topology();

describe('Redis Cluster (3 primaries, 3 replicas, AOF with fsync always)', () => {
  describe('the state behaviour table', () => storeBehaviour(suite.makeStore));

  test('two service instances: concurrent events count exactly once; what one receives, the other decides on', async () => {
    const prefix = freshPrefix('cluster');
    await concurrentEventsAtTwoInstances(await suite.instance(prefix, 10_000), await suite.instance(prefix, 10_000));
  });

  test('a manual failover (CLUSTER FAILOVER on the replica) mid-load: no run allowed, no event lost', async () => {
    await suite.scenario('CLUSTER FAILOVER', async (prefix) => {
      const { slot, replica } = await cluster().ownerOf(`{${prefix}}killswitch`);
      expect(await replica.cli('cluster', 'failover')).toBe('OK');
      await cluster().settled(slot);
    });
  }, 90_000);

  test('the primary killed mid-load (SIGKILL), restarted after its replica took over: no run allowed, no event lost', async () => {
    await suite.scenario('primary killed', async (prefix) => {
      const { slot, primary, replica } = await cluster().ownerOf(`{${prefix}}killswitch`);
      await primary.stop('SIGKILL');
      await waitFor(async () => (await replica.cli('role')).startsWith('master'), 'the replica to take over', 30_000);
      await primary.start();
      await cluster().settled(slot);
    });
  }, 90_000);

  test('a resharding mid-load (the slot migrated key by key to another primary): no run allowed, no event lost', async () => {
    await suite.scenario('resharding', async (prefix) => {
      const { slot, primary: from, primaryId: fromId } = await cluster().ownerOf(`{${prefix}}killswitch`);
      const to = (await cluster().primaries()).find((p) => p.id !== fromId);
      if (!to) throw new Error('no other primary');
      await to.node.cli('cluster', 'setslot', String(slot), 'importing', fromId);
      await from.cli('cluster', 'setslot', String(slot), 'migrating', to.id);
      for (;;) {
        const keys = (await from.cli('cluster', 'getkeysinslot', String(slot), '10')).split('\n').filter(Boolean);
        if (keys.length === 0) break;
        await from.cli('migrate', '127.0.0.1', String(to.node.port), '', '0', '5000', 'keys', ...keys);
      }
      for (const p of await cluster().primaries()) await p.node.cli('cluster', 'setslot', String(slot), 'node', to.id);
      await cluster().settled(slot);
    });
  }, 90_000);
});
