import { settleExceptionUses, usesOf } from '../../src/approvals/settle-exception-uses';
import { decide } from '../../src/policy/engine/decide';
import type { Facts } from '../../src/policy/facts/facts';
import { MemoryStateStore } from '../../src/state/memory-state-store';
import { StateUnavailableError, type StateStore } from '../../src/state/state-store';
import { withoutExceptionUseCounts } from '../../src/state/uncounted-exception-uses';
import { readStateFacts } from '../../src/policy/facts/read-facts';
import { preflightWith } from '../helpers/fixtures';
import { bundleFrom } from '../helpers/bundle-from';
import { startRedis, type TestRedis } from '../state/redis-server';
import { freshPrefix, redisStore, TIMING } from '../state/store-table';

/** maxUses: counted by the state store, taken only for an allowed run, all or none, exact under concurrency. */
const NOW = new Date('2026-01-05T10:00:00Z');
const FILES = {
  'p.yaml': 'kind: Policy\nname: no-production\nrules:\n  - environments: { blocked: [production] }\n',
  'e.yaml':
    'kind: Exception\nname: once\npolicy: no-production\nowner: jane\nreason: game day\nexpires: "2026-01-05T12:00:00Z"\nmaxUses: 2\nmatch: { experimentKeys: [ADM-1] }\n',
};
const bundle = bundleFrom(FILES, NOW);
const payload = preflightWith((p) => {
  p.execution.environment = 'production';
});
const decideWith = (facts: Facts) => decide(bundle, payload, facts, NOW, { decisionId: 'd-1' });
const use = { name: 'once', maxUses: 2 };

describe('the decision reads the use count', () => {
  test.each([
    ['no use yet: waived, use 1 of 2', { exceptionUses: {} }, true, 'use 1 of 2: game day'],
    ['one use: waived, use 2 of 2', { exceptionUses: { once: 1 } }, true, 'use 2 of 2: game day'],
    [
      'used up: denied, saying so',
      { exceptionUses: { once: 2 } },
      false,
      'exception "once" is used up (2 of 2 runs waived)',
    ],
    ['count not gathered: never waived (fail closed)', {}, false, 'cannot tell how often exception "once" was used'],
    [
      'count not kept by the store: never waived, saying why',
      { exceptionUsesUnknown: 'counts are kept in memory only' },
      false,
      'cannot tell how often exception "once" was used (counts are kept in memory only), so it does not waive',
    ],
  ])('%s', (_name, state, allowed, text) => {
    const d = decideWith({ state });
    expect(d.allowed).toBe(allowed);
    expect(allowed ? d.results[0].reasons[0] : d.message).toContain(text);
  });

  test('the bundle asks the state store for the count of each exception with maxUses', () => {
    expect(bundle.needs).toContainEqual({ kind: 'exception-uses', exception: 'once' });
  });
});

describe('settling: the use is taken only when the run is allowed', () => {
  test('an allowed waived run takes its use; a denied one takes none', async () => {
    const store = new MemoryStateStore(TIMING);
    const take = (u: Parameters<StateStore['takeExceptionUses']>[0], now: Date) => store.takeExceptionUses(u, now);
    const facts = { state: { exceptionUses: {} } };
    const first = await settleExceptionUses({ decision: decideWith(facts), facts }, bundle, NOW, decideWith, take);
    expect(first.decision.allowed).toBe(true);
    expect(
      await store.read({ emergencyStop: false, running: false, scopes: [], exceptionUses: ['once'] }, NOW),
    ).toEqual({ exceptionUses: { once: 1 } });
    const usedUp = { state: { exceptionUses: { once: 2 } } };
    await settleExceptionUses({ decision: decideWith(usedUp), facts: usedUp }, bundle, NOW, decideWith, take);
    expect(
      (await store.read({ emergencyStop: false, running: false, scopes: [], exceptionUses: ['once'] }, NOW))
        .exceptionUses,
    ).toEqual({ once: 1 });
  });

  test('another replica took the last use between read and take: decided again, denied as used up', async () => {
    const store = new MemoryStateStore(TIMING);
    await store.takeExceptionUses([use], NOW);
    await store.takeExceptionUses([use], NOW);
    const stale = { state: { exceptionUses: { once: 1 } } };
    const settled = await settleExceptionUses(
      { decision: decideWith(stale), facts: stale },
      bundle,
      NOW,
      decideWith,
      (u, now) => store.takeExceptionUses(u, now),
    );
    expect(settled.decision.allowed).toBe(false);
    expect(settled.decision.message).toContain('exception "once" is used up (2 of 2 runs waived)');
    expect(settled.facts.state?.exceptionUses).toEqual({ once: 2 });
  });

  test('without a store to count, a waived run is refused (never waived uncounted)', async () => {
    const facts = { state: { exceptionUses: {} } };
    await expect(
      settleExceptionUses({ decision: decideWith(facts), facts }, bundle, NOW, decideWith, undefined),
    ).rejects.toThrow('no state store counts exception uses');
  });
});

describe('a store that cannot keep counts (in memory, issue 49)', () => {
  const store = withoutExceptionUseCounts(new MemoryStateStore(TIMING), 'why not');
  const query = { emergencyStop: false, running: false, scopes: [], exceptionUses: ['once'] };

  test('answers why instead of a count, so the exception does not waive and the denial says why', async () => {
    const state = await store.read(query, NOW);
    expect(state).toEqual({ exceptionUsesUnknown: 'why not' });
    expect(decideWith({ state }).message).toContain('cannot tell how often exception "once" was used (why not)');
  });

  test('refuses to take a use, and /readyz says the uses are not counted', async () => {
    await expect(store.takeExceptionUses([use], NOW)).rejects.toThrow(StateUnavailableError);
    expect(store.health().exceptionUses).toBe('not counted: an exception with maxUses does not waive; why not');
  });

  test.each([[{ exceptionUsesUnknown: 'why not' }], [{ exceptionUses: { once: 1 } }]])(
    'a suite case or eval --state can give the same fact: %j',
    (state) => {
      expect(readStateFacts(state)).toEqual({ ok: true, facts: state });
    },
  );
});

describe('takeExceptionUses under concurrency: exactly maxUses are taken', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis.stop();
  });

  test.each([['memory'], ['redis, two stores sharing one server']])(
    '%s',
    async (kind) => {
      const prefix = freshPrefix('uses');
      const stores: StateStore[] =
        kind === 'memory'
          ? [new MemoryStateStore(TIMING)]
          : [await redisStore(redis, prefix), await redisStore(redis, prefix)];
      const other = { name: 'other', maxUses: 5 };
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) => stores[i % stores.length].takeExceptionUses([use, other], NOW)),
      );
      expect(outcomes.filter((o) => o.taken)).toHaveLength(2);
      expect(outcomes.filter((o) => !o.taken)[0]).toEqual({ taken: false, counts: { once: 2, other: 2 } });
      expect(
        (
          await stores[0].read(
            { emergencyStop: false, running: false, scopes: [], exceptionUses: ['once', 'other', 'never'] },
            NOW,
          )
        ).exceptionUses,
      ).toEqual({ once: 2, other: 2 });
      await Promise.all(stores.map((s) => s.close()));
    },
    30_000,
  );
});

describe("in Redis a count outlives the exception's expires (which can be extended)", () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis.stop();
  });

  test("a use taken a moment before the exception's expiry and a day is still counted after it", async () => {
    const store = await redisStore(redis, freshPrefix('kept'));
    const allowed = decideWith({ state: { exceptionUses: {} } });
    // The clock is injected: the use is taken 1 ms before what was once the key's expiry (expires + 1 day).
    const takenAt = new Date(Date.parse('2026-01-05T12:00:00Z') + 86_400_000 - 1);
    expect(await store.takeExceptionUses(usesOf(allowed, bundle), takenAt)).toEqual({ taken: true });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const later = new Date(takenAt.getTime() + 3 * 86_400_000);
    const read = await store.read({ emergencyStop: false, running: false, scopes: [], exceptionUses: ['once'] }, later);
    expect(read.exceptionUses).toEqual({ once: 1 });
    await store.close();
  }, 30_000);
});
