import type { GuardedRun, GuardStore } from '../../src/guard/guard-store';
import { MemoryGuardStore } from '../../src/guard/memory-guard-store';
import { createGuardStore } from '../../src/guard/create-guard-store';
import { RunsInProgress } from '../../src/guard/runs-in-progress';
import type { Target } from '../../src/payload/types';
import { replicasOnRedis } from '../state/store-table';
import { HOST, runOf } from '../helpers/runs-on-targets';

const NOW = Date.parse('2026-01-05T10:00:00Z');
const HOUR = 3_600_000;
const target = (name: string, attributes: Record<string, string> = {}): Target => ({
  type: HOST,
  name,
  attributes: Object.entries(attributes).map(([key, value]) => ({ key, value })),
});
const payload = runOf;
const kept = (id: number, team: string, targets: Target[]): GuardedRun => ({
  executionId: String(id),
  decisionId: `d-${id}`,
  allowedAt: new Date(NOW - 60_000).toISOString(),
  revision: 'r1',
  payload: payload(id, team, targets),
});

const replicas = replicasOnRedis();

/** Two replicas' guard stores: in memory one store seen twice, in Redis two connections on one prefix. */
const pairs: Array<[string, () => Promise<[GuardStore, GuardStore]>]> = [
  [
    'memory',
    async () => {
      const store = new MemoryGuardStore(() => NOW);
      return [store, store];
    },
  ],
  [
    'redis',
    async () => {
      const { a, b } = await replicas.pair('overlap');
      return [createGuardStore(a), createGuardStore(b)];
    },
  ],
];

/** Counts the payload reads, so a test can tell the index did not read every run again. */
function counting(store: GuardStore): { store: GuardStore; fetched: string[] } {
  const fetched: string[] = [];
  const fetch = store.fetch.bind(store);
  return {
    fetched,
    store: Object.assign(Object.create(store) as GuardStore, {
      fetch: (ids: readonly string[]) => {
        fetched.push(...ids);
        return fetch(ids);
      },
    }),
  };
}

describe.each(pairs)('the runs in progress (%s guard store)', (_name, make) => {
  test('a run kept by one replica is found by the other, by target and by attribute value', async () => {
    const [a, b] = await make();
    await a.keep(kept(9, 'OPS', [target('web-1', { 'host.hostname': 'node-a' })]), NOW + HOUR, NOW);
    await a.keep(kept(10, 'OPS', [target('web-2', { 'host.hostname': 'node-z' })]), NOW + HOUR, NOW);
    const mine = payload(1, 'ADM', [target('web-1'), target('c-3', { 'host.hostname': 'node-a' })]);
    expect(await new RunsInProgress(b).sharing(mine, ['host.hostname'], NOW)).toEqual({
      runs: { '9': { experimentKey: 'OPS-9', team: 'OPS', since: '2026-01-05T09:59:00.000Z' } },
      targets: { [`${HOST}/web-1`]: ['9'] },
      attributes: { 'host.hostname': { 'node-a': ['9'] } },
    });
  });

  test('a payload is read once; a run forgotten or expired leaves; a new key asked reads the runs again', async () => {
    const [a, b] = await make();
    const { store, fetched } = counting(b);
    const index = new RunsInProgress(store);
    const mine = payload(1, 'ADM', [target('web-1', { 'host.hostname': 'node-a', 'k8s.zone': 'z1' })]);
    await a.keep(kept(9, 'OPS', [target('web-1', { 'k8s.zone': 'z1' })]), NOW + HOUR, NOW);
    await a.keep(kept(11, 'SRE', [target('db-1', { 'host.hostname': 'node-a' })]), NOW + 2 * HOUR, NOW);
    const first = await index.sharing(mine, ['host.hostname'], NOW);
    expect(Object.keys(first.runs).sort()).toEqual(['11', '9']);
    expect(fetched.sort()).toEqual(['11', '9']);
    await index.sharing(mine, ['host.hostname'], NOW);
    expect(fetched).toHaveLength(2);

    expect(index.size).toBe(2);
    await a.forget('9');
    expect((await index.sharing(mine, ['host.hostname'], NOW)).runs).toEqual({ '11': expect.anything() });
    expect(index.size).toBe(1);
    // EXECUTION_TTL_SECONDS: past its expiry a run is not in progress, whether or not the store pruned it.
    expect((await index.sharing(mine, ['host.hostname'], NOW + HOUR + 1)).runs).toEqual({ '11': expect.anything() });
    expect((await index.sharing(mine, ['host.hostname'], NOW + 2 * HOUR)).runs).toEqual({});

    await a.keep(kept(12, 'OPS', [target('other', { 'k8s.zone': 'z1' })]), NOW + HOUR, NOW);
    expect((await index.sharing(mine, ['k8s.zone'], NOW)).attributes).toEqual({ 'k8s.zone': { z1: ['12'] } });
    expect(fetched.slice(2).sort()).toEqual(['11', '12']);
  });
});
