import type { RedisStateStore } from '../../src/state/redis-state-store';
import { failoverUnderLoad, type LoadReport } from './failover-load';
import type { TestTopology } from './redis-topologies';
import { freshPrefix, redisStore, redisStores, TIMING, type MakeStore } from './store-table';

export interface TopologySuite<T> {
  /** The running topology (after beforeAll). */
  topology(): T;
  /** Fresh stores for the behaviour table. */
  makeStore: MakeStore;
  /**
   * A store as a service instance has it: in the failover tests, production's timeout (a loaded CI
   * machine gets 2 s, not 1); 240 events at once (each an fsync and a WAIT) get the table's 10 s.
   */
  instance(prefix: string, timeoutMs?: number): Promise<RedisStateStore>;
  /** Fails over mid-load (failover-load.ts): no preflight allowed, no acknowledged event lost. */
  scenario(name: string, disrupt: (prefix: string) => Promise<void>): Promise<void>;
}

/**
 * Starts `start()` once for a test file, and stops every process, client and temp dir after it.
 * The recovery times docs/state.md quotes are printed at the end.
 */
export function topologySuite<T extends TestTopology>(label: string, start: () => Promise<T>): TopologySuite<T> {
  let topology: T | undefined;
  const table = redisStores(() => topology);
  const open: RedisStateStore[] = [];
  const measured: Record<string, LoadReport> = {};
  beforeAll(async () => {
    topology = await start();
  }, 60_000);
  afterAll(async () => {
    if (Object.keys(measured).length > 0)
      process.stdout.write(`${label} failover measurements: ${JSON.stringify(measured, null, 1)}\n`);
    await table.close();
    await Promise.all(open.map((s) => s.close()));
    await topology?.destroy();
  });
  const suite: TopologySuite<T> = {
    topology() {
      if (!topology) throw new Error(`${label} was not started`);
      return topology;
    },
    makeStore: table.make,
    async instance(prefix, timeoutMs = 2000) {
      const store = await redisStore(suite.topology(), prefix, TIMING, timeoutMs);
      open.push(store);
      return store;
    },
    async scenario(name, disrupt) {
      const prefix = freshPrefix('failover');
      const stores = [await suite.instance(prefix), await suite.instance(prefix)];
      const report = await failoverUnderLoad(
        stores,
        () => suite.instance(prefix),
        () => disrupt(prefix),
        'failover',
      );
      measured[name] = report;
      expect([report.preflights.allowed, report.lost, report.events.other, report.preflights.other]).toEqual([
        0,
        [],
        0,
        0,
      ]);
      expect(report.preflights.denied).toBeGreaterThan(0);
    },
  };
  return suite;
}
