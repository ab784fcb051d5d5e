import type { StateQuery, StateStore } from '../../src/state/state-store';
import {
  at,
  created,
  disengagedPayload,
  ended,
  engagedPayload,
  executionPayload,
  stateEvent,
  T0,
} from './state-events';
import { TIMING, type MakeStore } from './store-table';

const ADM = 'team:adm';
const PROD = 'environment:prod';
const now = new Date(T0);
const everything = (sinceMs = T0 - 86_400_000): StateQuery => ({
  emergencyStop: true,
  running: true,
  scopes: [ADM, PROD],
  endedSinceMs: sinceMs,
  startedSinceMs: sinceMs,
});
const ids = (runs: Array<{ id: string }> | undefined) =>
  (runs ?? []).map((r) => r.id).sort((a, b) => Number(a) - Number(b));

/**
 * The state behaviour table: what every store (memory, Redis standalone, Sentinel, Cluster) must
 * answer. Call inside a describe; `make()` gives a fresh, empty store.
 */
export function storeBehaviour(make: MakeStore): void {
  let store: StateStore;
  beforeEach(async () => {
    store = await make();
  });

  test('a created run is running under its team and environment until it ends; its end is remembered with its state', async () => {
    expect(await store.apply(created(1), now)).toBe('applied');
    let view = await store.read(everything(), now);
    expect([ids(view.running?.[ADM]), ids(view.running?.[PROD])]).toEqual([['1'], ['1']]);
    expect(await store.apply(ended(1, 'failed'), now)).toBe('applied');
    view = await store.read(everything(), now);
    expect([ids(view.running?.[ADM]), ids(view.running?.[PROD])]).toEqual([[], []]);
    expect(view.ended?.[PROD]).toEqual([{ id: '1', atMs: T0, state: 'FAILED' }]);
    expect(ids(view.started?.[ADM])).toEqual(['1']);
  });

  test('a repeated delivery is a duplicate and counts once', async () => {
    expect([await store.apply(created(2), now), await store.apply(created(2), now)]).toEqual(['applied', 'duplicate']);
    expect((await store.read(everything(), now)).started?.[ADM]).toHaveLength(1);
  });

  test('an end that arrives before its start leaves nothing running', async () => {
    expect(await store.apply(ended(3, 'completed', { time: at(T0 + 5000) }), now)).toBe('applied');
    expect(await store.apply(created(3), now)).toBe('stale');
    expect((await store.read(everything(), now)).running).toEqual({ [ADM]: [], [PROD]: [] });
  });

  test('a second end of the same run is ignored', async () => {
    await store.apply(created(4), now);
    await store.apply(ended(4, 'completed'), now);
    expect(await store.apply(ended(4, 'failed'), now)).toBe('stale');
    expect((await store.read(everything(), now)).ended?.[PROD]).toEqual([{ id: '4', atMs: T0, state: 'COMPLETED' }]);
  });

  test('a run is recorded under each attacked service its created event lists, and its end there too', async () => {
    const onCheckout = (event: string) => {
      const payload = executionPayload(event, 6);
      if (payload.execution)
        payload.execution.steps = [
          {
            actionKind: 'ATTACK',
            targetExecutions: [{ name: 'checkout-7d9f', attributes: [{ key: 'k8s.deployment', value: 'Checkout' }] }],
          },
        ];
      return stateEvent(payload);
    };
    const service = 'service:k8s.deployment=checkout';
    expect(await store.apply(onCheckout('created'), now)).toBe('applied');
    // The end event need not list the targets: the run ends under the scopes it started with.
    expect(await store.apply(ended(6, 'failed'), now)).toBe('applied');
    const view = await store.read({ ...everything(), scopes: [service] }, now);
    expect(view.ended?.[service]).toEqual([{ id: '6', atMs: T0, state: 'FAILED' }]);
  });

  test('an override environment counts as well', async () => {
    await store.apply(created(5, { env: 'staging', override: 'prod' }), now);
    const view = await store.read({ ...everything(), scopes: ['environment:staging', PROD] }, now);
    expect([ids(view.running?.['environment:staging']), ids(view.running?.[PROD])]).toEqual([['5'], ['5']]);
  });

  test('a run that never reports its end stops counting after the TTL', async () => {
    await store.apply(created(6), now);
    const justBefore = new Date(T0 + TIMING.executionTtlMs - 1);
    const justAfter = new Date(T0 + TIMING.executionTtlMs + 1);
    expect(ids((await store.read(everything(), justBefore)).running?.[ADM])).toEqual(['6']);
    expect(ids((await store.read(everything(), justAfter)).running?.[ADM])).toEqual([]);
  });

  test('history is read only as far back as asked', async () => {
    await store.apply(ended(7, 'errored', { time: at(T0 - 60_000) }), now);
    expect(ids((await store.read(everything(T0 - 60_000), now)).ended?.[PROD])).toEqual(['7']);
    expect(ids((await store.read(everything(T0 - 59_999), now)).ended?.[PROD])).toEqual([]);
  });

  test('the emergency stop says who engaged it and since when', async () => {
    expect((await store.read(everything(), now)).emergencyStop).toEqual({ engaged: false });
    await store.apply(stateEvent(engagedPayload(at(T0, 123456), 'jane')), now);
    expect((await store.read(everything(), now)).emergencyStop).toEqual({
      engaged: true,
      by: 'jane',
      since: at(T0, 123456),
    });
  });

  test.each([
    ['the exact replay of an old disengagement', disengagedPayload(at(T0 + 1000), at(T0)), 'duplicate'],
    ['an old disengagement delivered again later', disengagedPayload(at(T0 + 1000), at(T0), at(T0 + 5000)), 'stale'],
    [
      'a disengagement of an earlier engagement, timed after the new one',
      disengagedPayload(at(T0 + 3000), at(T0)),
      'stale',
    ],
  ])('%s never unlocks a newer engagement', async (_name, replay, outcome) => {
    await store.apply(stateEvent(engagedPayload(at(T0))), now);
    await store.apply(stateEvent(disengagedPayload(at(T0 + 1000), at(T0))), now);
    await store.apply(stateEvent(engagedPayload(at(T0 + 2000), 'ann')), now);
    expect(await store.apply(stateEvent(replay), now)).toBe(outcome);
    expect((await store.read(everything(), now)).emergencyStop).toEqual({
      engaged: true,
      by: 'ann',
      since: at(T0 + 2000),
    });
  });

  test.each([
    ['names no engagement (killswitch.engaged missing)', { disengagedBy: 'joe', disengaged: at(T0 + 1000) }],
    ['names an engagement other than the one in force', { engaged: at(T0 + 500), disengaged: at(T0 + 1000) }],
    ['names an engagement later than itself', { engaged: at(T0 + 2000), disengaged: at(T0 + 1000) }],
    ['carries no times at all (killswitch: {})', {}],
  ])('a disengagement that %s is unmatched and leaves the stop engaged', async (_name, killswitch) => {
    await store.apply(stateEvent(engagedPayload(at(T0), 'ann')), now);
    const odd = stateEvent({ event: 'killswitch.disengaged', time: at(T0 + 1000), killswitch });
    expect(await store.apply(odd, now)).toBe('unmatched');
    expect((await store.read(everything(), now)).emergencyStop).toEqual({ engaged: true, by: 'ann', since: at(T0) });
    expect(await store.apply(stateEvent(disengagedPayload(at(T0 + 3000), at(T0))), now)).toBe('applied');
    expect((await store.read(everything(), now)).emergencyStop).toEqual({ engaged: false });
  });

  test('a disengagement that names no engagement is unmatched even when nothing is engaged', async () => {
    expect(await store.apply(stateEvent({ event: 'killswitch.disengaged', time: at(T0), killswitch: {} }), now)).toBe(
      'unmatched',
    );
    expect(await store.apply(stateEvent(engagedPayload(at(T0 - 1000))), now)).toBe('applied');
  });

  test('a disengagement that arrives before its engagement wins: the late engagement is older', async () => {
    expect(await store.apply(stateEvent(disengagedPayload(at(T0 + 1000), at(T0))), now)).toBe('applied');
    expect(await store.apply(stateEvent(engagedPayload(at(T0))), now)).toBe('stale');
    expect((await store.read(everything(), now)).emergencyStop).toEqual({ engaged: false });
  });

  test.each([
    ['a disengagement 100 ns before the engagement (of the one before) is older', 400, 300, 'stale', true],
    ['a disengagement naming an engagement 100 ns after itself is unmatched', 400, 500, 'unmatched', true],
    ['a disengagement 100 ns after the engagement ends it', 600, 500, 'applied', false],
  ])('within one millisecond, %s', async (_name, nanos, endsNanos, outcome, engaged) => {
    await store.apply(stateEvent(engagedPayload(at(T0, 500))), now);
    expect(await store.apply(stateEvent(disengagedPayload(at(T0, nanos), at(T0, endsNanos))), now)).toBe(outcome);
    expect((await store.read(everything(), now)).emergencyStop?.engaged).toBe(engaged);
  });

  test('many events at once: every start and every end is counted exactly once', async () => {
    const runs = Array.from({ length: 150 }, (_, i) => 1000 + i);
    const starts = await Promise.all([...runs, ...runs].map((id) => store.apply(created(id), now)));
    expect([starts.filter((o) => o === 'applied').length, starts.filter((o) => o === 'duplicate').length]).toEqual([
      150, 150,
    ]);
    let view = await store.read(everything(), now);
    expect([view.running?.[ADM].length, view.started?.[ADM].length]).toEqual([150, 150]);
    await Promise.all(runs.filter((id) => id % 3 === 0).map((id) => store.apply(ended(id, 'failed'), now)));
    view = await store.read(everything(), now);
    expect([view.running?.[ADM].length, view.ended?.[PROD].length, view.started?.[ADM].length]).toEqual([100, 50, 150]);
  });
}
