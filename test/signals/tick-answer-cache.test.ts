import { MAX_CACHED_QUERIES } from '../../src/signals/answer-cache';
import { createTickAnswerCache } from '../../src/signals/tick-answer-cache';

/** A loader that counts its calls and answers what `answer` says at that moment. */
function counting(answer: () => object) {
  const loader = {
    calls: 0,
    load: async () => {
      loader.calls++;
      return answer();
    },
  };
  return loader;
}

describe('the guard tick cache', () => {
  it('asks once per tick for every run of it, and again at the next tick', async () => {
    const cache = createTickAnswerCache();
    let alerts = 0;
    const source = counting(() => ({ alerts }));
    const first = await Promise.all([1, 2, 3].map(() => cache.get('am', source.load)));
    expect(first.map((r) => r.cached)).toEqual([false, true, true]);
    expect(await cache.get('am', source.load)).toEqual({ answer: { alerts: 0 }, cached: true });
    alerts = 1;
    cache.nextTick();
    expect(await cache.get('am', source.load)).toEqual({ answer: { alerts: 1 }, cached: false });
    expect(source.calls).toBe(2);
  });

  it('shares an error for the tick (a source away costs one timeout), and asks again at the next', async () => {
    const cache = createTickAnswerCache();
    const source = counting(() => ({ error: 'connection refused' }));
    await cache.get('am', source.load);
    expect(await cache.get('am', source.load)).toEqual({ answer: { error: 'connection refused' }, cached: true });
    cache.nextTick();
    await cache.get('am', source.load);
    expect(source.calls).toBe(2);
  });

  it('keeps each distinct query apart', async () => {
    const cache = createTickAnswerCache();
    const a = counting(() => ({ v: 'a' }));
    const b = counting(() => ({ v: 'b' }));
    expect((await cache.get('a', a.load)).answer).toEqual({ v: 'a' });
    expect((await cache.get('b', b.load)).answer).toEqual({ v: 'b' });
    expect((await cache.get('a', b.load)).answer).toEqual({ v: 'a' });
    expect([a.calls, b.calls]).toEqual([1, 1]);
  });

  it('keeps at most MAX_CACHED_QUERIES answers in a tick; a query past them is asked each time', async () => {
    const cache = createTickAnswerCache();
    const source = counting(() => ({}));
    for (let i = 0; i < MAX_CACHED_QUERIES; i++) await cache.get(`q${i}`, source.load);
    await cache.get('one-more', source.load);
    expect((await cache.get('one-more', source.load)).cached).toBe(false);
    expect((await cache.get('q0', source.load)).cached).toBe(true);
  });
});
