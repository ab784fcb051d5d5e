import { bundleFrom } from '../helpers/bundle-from';
import { preflightPayload } from '../helpers/fixtures';
import { largeRun } from '../helpers/large-run';
import { replicasOnRedis } from '../state/store-table';
import { guardUnderTest, TestClock } from './guard-harness';
import { createGuardStore } from '../../src/guard/create-guard-store';

jest.setTimeout(60_000);

// Issue 48 item 4: a tick over runs kept in Redis must not read every kept payload again (each a
// gzipped JSON of its targets). What a tick reads is counted by Redis itself: every key a read
// command finds adds one to INFO stats keyspace_hits, so the hits of a tick are the index plus
// each payload it fetched.
const RUNS = 1000;
const bundle = bundleFrom({
  'p.yaml':
    'kind: Policy\nname: business-hours\nwhileRunning: true\nrules:\n  - timeWindow: { timeZone: Europe/Berlin, allowed: [{ days: [Mon-Fri], from: "09:00", to: "17:00" }] }\n',
});
const OPEN = '2026-01-05T15:45:00Z';
const AFTER_CLOSE = '2026-01-05T16:05:00Z';

const replicas = replicasOnRedis();

async function keyspaceHits(): Promise<number> {
  const line = (await replicas.redis.cli('INFO', 'stats')).split('\n').find((l) => l.startsWith('keyspace_hits:'));
  return Number(line?.split(':')[1]);
}

/** The keys Redis found for reads while `work` ran. */
async function readsOf(work: () => Promise<unknown>): Promise<number> {
  const before = await keyspaceHits();
  await work();
  return (await keyspaceHits()) - before;
}

test('a tick reads each kept payload once: later ticks read the index, and only runs new since or kept again', async () => {
  const { a, b } = await replicas.pair('guard-reads');
  const clock = new TestClock(new Date(OPEN));
  const ga = guardUnderTest(bundle, clock, { runs: createGuardStore(a), replica: 'a', cancel: undefined });
  const other = createGuardStore(b);
  const base = largeRun(preflightPayload(), 10);
  const keep = (id: number, store = other) =>
    store.keep(
      {
        executionId: String(id),
        decisionId: `d-${id}`,
        allowedAt: clock.now().toISOString(),
        revision: bundle.revision,
        payload: { ...base, execution: { ...base.execution, id } },
      },
      clock.now().getTime() + 3600_000,
      clock.now().getTime(),
    );
  for (let id = 1; id <= RUNS; id++) await keep(id);

  const first = await readsOf(() => ga.guard.tick());
  const second = await readsOf(() => ga.guard.tick());
  expect(ga.guard.health().guardedRuns).toBe(RUNS);
  // The first tick fetched every payload; the second only what the first read besides them (the index).
  expect(first - second).toBe(RUNS);
  expect(second).toBeLessThanOrEqual(2);

  // Another replica keeps one more run and forgets another: the next tick reads that one payload alone.
  await keep(RUNS + 1);
  await other.forget('1');
  expect(await readsOf(() => ga.guard.tick())).toBe(second + 1);
  expect(ga.guard.health().guardedRuns).toBe(RUNS);

  // The runs not read again are still judged on their payloads: after the window closes, every one would stop.
  clock.set(AFTER_CLOSE);
  expect(await readsOf(() => ga.guard.tick())).toBe(second);
  expect(await ga.metric('preflight_guard_reports_total', { kind: 'cannot_stop' })).toBe(RUNS);
});
