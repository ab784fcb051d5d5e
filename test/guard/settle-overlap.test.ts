import { decide } from '../../src/policy/engine/decide';
import type { Facts } from '../../src/policy/facts/facts';
import { MemoryGuardStore } from '../../src/guard/memory-guard-store';
import { RunsInProgress } from '../../src/guard/runs-in-progress';
import { overlapSettler } from '../../src/guard/settle-overlap';
import { StateUnavailableError } from '../../src/state/state-store';
import { bundleFrom } from '../helpers/bundle-from';
import { onHost, runOf } from '../helpers/runs-on-targets';

// One replica (the store in this process): two overlapping preflights decided before either was
// kept, then settled at once, as two requests of one turn are.
const bundle = bundleFrom({
  'p.yaml': 'kind: Policy\nname: one-run-per-host\nrules:\n  - noOverlap: {by: [host.hostname]}\n',
});
const NOW = new Date('2026-01-05T10:00:00Z');
const TTL = 3_600_000;

function setUp(store = new MemoryGuardStore(() => NOW.getTime())) {
  const inProgress = new RunsInProgress(store);
  return { store, inProgress, settle: overlapSettler({ store, inProgress, executionTtlMs: TTL, waitMs: 200 }) };
}

async function firstDecision(inProgress: RunsInProgress, id: number, host: string) {
  const payload = runOf(id, 'OPS', [onHost(`t-${id}`, host)]);
  const facts: Facts = { state: { inProgress: await inProgress.sharing(payload, ['host.hostname'], NOW.getTime()) } };
  const redecide = (f: Facts) => decide(bundle, payload, f, NOW, { decisionId: `d-${id}` });
  return { payload, redecide, decided: { decision: redecide(facts), facts } };
}

const asIs = async <T>(d: T) => d;

describe('overlapSettler: runs that noOverlap rules read are decided one at a time and kept before their answer', () => {
  test('two overlapping runs both allowed at first: settled together, one is allowed and kept, the other denied naming it', async () => {
    const { store, inProgress, settle } = setUp();
    const [a, b] = [await firstDecision(inProgress, 1, 'web-1'), await firstDecision(inProgress, 2, 'web-1')];
    expect([a.decided.decision.allowed, b.decided.decision.allowed]).toEqual([true, true]);
    const [sa, sb] = await Promise.all([a, b].map((r) => settle(r.decided, bundle, r.payload, NOW, r.redecide, asIs)));
    expect([sa.decision.allowed, sb.decision.allowed]).toEqual([true, false]);
    expect(sb.decision.message).toContain('a run in progress shares targets with this run: run 1');
    expect(await store.ids(NOW.getTime())).toEqual(['1']);
  });

  test('a run on another host: both allowed and kept', async () => {
    const { store, inProgress, settle } = setUp();
    const [a, b] = [await firstDecision(inProgress, 3, 'web-1'), await firstDecision(inProgress, 4, 'web-2')];
    const settled = await Promise.all([a, b].map((r) => settle(r.decided, bundle, r.payload, NOW, r.redecide, asIs)));
    expect(settled.map((s) => s.decision.allowed)).toEqual([true, true]);
    expect((await store.ids(NOW.getTime())).sort()).toEqual(['3', '4']);
  });

  test('a run `finish` denies (an exception use not had) is not kept', async () => {
    const { store, inProgress, settle } = setUp();
    const a = await firstDecision(inProgress, 5, 'web-1');
    const denied = await settle(a.decided, bundle, a.payload, NOW, a.redecide, async (d) => ({
      ...d,
      decision: { ...d.decision, allowed: false },
    }));
    expect(denied.decision.allowed).toBe(false);
    expect(await store.ids(NOW.getTime())).toEqual([]);
  });

  test('a lock another holder keeps past the wait: denied as the store being unavailable, nothing kept', async () => {
    const { store, inProgress, settle } = setUp();
    expect(await store.lockOverlap('someone-else', 60_000)).toBe(true);
    const a = await firstDecision(inProgress, 6, 'web-1');
    await expect(settle(a.decided, bundle, a.payload, NOW, a.redecide, asIs)).rejects.toThrow(StateUnavailableError);
    expect(await store.ids(NOW.getTime())).toEqual([]);
  });

  test('a lock lost before the keep (it outlived lockMs): denied, nothing kept', async () => {
    const store = new MemoryGuardStore(() => NOW.getTime());
    const inProgress = new RunsInProgress(store);
    const settle = overlapSettler({ store, inProgress, executionTtlMs: TTL, lockMs: 0 });
    const a = await firstDecision(inProgress, 7, 'web-1');
    await expect(settle(a.decided, bundle, a.payload, NOW, a.redecide, asIs)).rejects.toThrow(
      'the overlap check took longer than its lock',
    );
    expect(await store.ids(NOW.getTime())).toEqual([]);
  });
});
