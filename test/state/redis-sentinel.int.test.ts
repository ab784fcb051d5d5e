import { waitFor } from '../helpers/server-process';
import { startSentinels } from './redis-topologies';
import { concurrentEventsAtTwoInstances } from './shared-instances';
import { storeBehaviour } from './store-behaviour';
import { freshPrefix } from './store-table';
import { topologySuite } from './topology-suite';

const suite = topologySuite('Redis Sentinel', startSentinels);
const sentinels = () => suite.topology();

describe('Redis Sentinel (a primary, a replica, three sentinels; AOF with fsync always)', () => {
  describe('the state behaviour table', () => storeBehaviour(suite.makeStore));

  test('two service instances: concurrent events count exactly once; what one receives, the other decides on', async () => {
    const prefix = freshPrefix('sentinel');
    await concurrentEventsAtTwoInstances(await suite.instance(prefix, 10_000), await suite.instance(prefix, 10_000));
  });

  test('SENTINEL FAILOVER mid-load: no run allowed, no event lost', async () => {
    await suite.scenario('SENTINEL FAILOVER', async () => {
      const before = await sentinels().primary();
      expect(await sentinels().sentinels[0].cli('sentinel', 'failover', sentinels().name)).toBe('OK');
      await waitFor(
        async () => (await sentinels().primary()) !== before,
        'the sentinels to name the new primary',
        30_000,
      );
      await sentinels().settled();
    });
  }, 90_000);

  test('the primary killed mid-load (SIGKILL), restarted after the failover: no run allowed, no event lost', async () => {
    await suite.scenario('primary killed', async () => {
      const before = await sentinels().primary();
      await before.stop('SIGKILL');
      await waitFor(async () => (await sentinels().primary()) !== before, 'the sentinels to fail over', 30_000);
      await before.start();
      await sentinels().settled();
    });
  }, 90_000);
});
