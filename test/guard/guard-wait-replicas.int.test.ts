import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GuardedRun } from '../../src/guard/guard-store';
import { RedisStateStore } from '../../src/state/redis-state-store';
import { preflightWith } from '../helpers/fixtures';
import { waitFor } from '../helpers/server-process';
import { NO_PERSISTENCE, redisNode, startRedis, type RedisNode, type TestRedis } from '../state/redis-server';
import { freshPrefix, TIMING } from '../state/store-table';
import { createGuardStore } from '../../src/guard/create-guard-store';

jest.setTimeout(30_000);

const NOW = Date.parse('2026-01-05T10:00:00Z');
const kept: GuardedRun = {
  executionId: '77',
  decisionId: 'd-77',
  allowedAt: new Date(NOW).toISOString(),
  revision: 'r1',
  payload: preflightWith((p) => {
    p.execution.id = 77;
  }),
};

let primary: TestRedis;
let replica: RedisNode | undefined;
/** The replica's directory: a full sync writes the primary's data there (never into the working directory). */
const replicaDir = mkdtempSync(join(tmpdir(), 'pg-guard-replica-'));
const stores: RedisStateStore[] = [];
beforeAll(async () => {
  primary = await startRedis({ aof: true });
});
afterAll(async () => {
  await replica?.stop();
  await primary.destroy();
  rmSync(replicaDir, { recursive: true, force: true });
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

/**
 * A store with REDIS_WAIT_REPLICAS=1 on the primary; WAIT gives up after half the command timeout
 * (1 s: a replica on a machine loaded by other test workers still acknowledges within it).
 */
async function waitingStore(prefix = freshPrefix('guard-wait')): Promise<RedisStateStore> {
  const store = new RedisStateStore({
    ...TIMING,
    redis: { ...primary.connection, waitReplicas: 1, keyPrefix: prefix },
    timeoutMs: 2000,
  });
  stores.push(store);
  await waitFor(async () => store.health().available, 'Redis to connect');
  return store;
}

test("the guard's writes wait for REDIS_WAIT_REPLICAS like every update: without a replica they fail, saying so", async () => {
  const runs = createGuardStore(await waitingStore());
  const notHeld = /reached 0 of 1 replicas within 1000 ms \(REDIS_WAIT_REPLICAS\): it may not survive a failover/;
  await expect(runs.keep(kept, NOW + 3600_000, NOW)).rejects.toThrow(notHeld);
  await expect(runs.claim('77', 'replica-a', 30_000)).rejects.toThrow(notHeld);
  await expect(runs.release('77', 'replica-a')).rejects.toThrow(notHeld);
  await expect(runs.stopped('77', 'replica-a', 60_000)).rejects.toThrow(notHeld);
  await expect(runs.forget('77')).rejects.toThrow(notHeld);
});

test('with a replica attached the same writes succeed, and the replica holds the run and its lease', async () => {
  replica = await redisNode([...NO_PERSISTENCE, '--dir', replicaDir, '--replicaof', '127.0.0.1', String(primary.port)]);
  await waitFor(
    async () => (await (replica as RedisNode).cli('INFO', 'replication')).includes('master_link_status:up'),
    'the replica to sync',
  );
  const prefix = freshPrefix('guard-wait');
  const runs = createGuardStore(await waitingStore(prefix));
  await runs.keep(kept, NOW + 3600_000, NOW);
  expect(await runs.claim('77', 'replica-a', 30_000)).toBe('claimed');
  // What the primary acknowledged is on the replica already (WAIT), under this store's prefix.
  const onReplica = (key: string) => (replica as RedisNode).cli('--scan', '--pattern', `*${prefix}*guard:${key}`);
  expect(await onReplica('run:77')).not.toBe('');
  expect(await onReplica('lease:77')).not.toBe('');
  await runs.stopped('77', 'replica-a', 60_000);
  await runs.forget('77');
  expect(await runs.runs(NOW)).toEqual([]);
  expect(await runs.claim('77', 'replica-b', 30_000)).toBe('stopped');
});
