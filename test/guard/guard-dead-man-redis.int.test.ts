import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PreflightPayload } from '../../src/policy/core/decision';
import type { SignalFacts } from '../../src/policy/facts/signal-facts';
import { bundleFrom } from '../helpers/bundle-from';
import { ROOT, waitFor } from '../helpers/server-process';
import { replicasOnRedis } from '../state/store-table';
import { guardUnderTest, TestClock } from './guard-harness';
import { createGuardStore } from '../../src/guard/create-guard-store';

jest.setTimeout(60_000);

/** Two replicas sharing one redis-server keep one "silent since" per run and signal (docs/guard.md, "Dead man"). */
const bundle = bundleFrom({
  'p.yaml': `kind: Policy
name: traffic-dead-man
whileRunning: true
rules:
  - prometheus:
      query: 'service_up{service="{{target.k8s.deployment}}"}'
      denyWhen: "< 1"
      deadMan: { after: 2m }
`,
});
const run = (): PreflightPayload =>
  JSON.parse(readFileSync(join(ROOT, 'examples', 'dead-man', 'run.json'), 'utf8')) as PreflightPayload;
const up = { resultType: 'vector' as const, result: [{ metric: {}, value: [0, '1'] as [number, string] }] };
const cartSilent: SignalFacts = {
  prometheus: {
    default: {
      'service_up{service="checkout"}': up,
      'service_up{service="cart"}': { resultType: 'vector', result: [] },
    },
  },
};
const gather = async () => ({ ok: true as const, facts: { signals: cartSilent } });

const replicas = replicasOnRedis();

test('the replica that found a silence first sets since when; the other reads it and acts on it', async () => {
  const { prefix, a, b } = await replicas.pair('dead-man');
  const clock = new TestClock(new Date('2026-01-05T10:00:00Z'));
  const ga = guardUnderTest(bundle, clock, { runs: createGuardStore(a), replica: 'a', cancel: undefined, gather });
  const gb = guardUnderTest(bundle, clock, { runs: createGuardStore(b), replica: 'b', cancel: undefined, gather });
  ga.allow(run());
  // keep() writes after the answer, without waiting: the run is in the store once its id is listed.
  await waitFor(async () => (await createGuardStore(a).ids(clock.now().getTime())).includes('42'), 'the run kept');
  await ga.guard.tick();
  const kept = [
    { kind: 'prometheus', source: 'default', query: 'service_up{service="cart"}', since: '2026-01-05T10:00:00.000Z' },
  ];
  expect(await createGuardStore(b).silences('42')).toEqual(kept);

  // Replica b finds it silent a minute later: the time replica a wrote stays.
  clock.set('2026-01-05T10:01:00Z');
  await gb.guard.tick();
  expect(await createGuardStore(a).silences('42')).toEqual(kept);
  expect(await gb.metric('preflight_guard_reports_total', { kind: 'cannot_stop' })).toBe(0);

  // Two minutes after replica a found it, replica b stops the run (here: would, without the Platform API).
  clock.set('2026-01-05T10:02:00Z');
  await gb.guard.tick();
  expect(await gb.metric('preflight_guard_reports_total', { policy: 'traffic-dead-man', kind: 'cannot_stop' })).toBe(1);

  // The silence expires with the run, and goes when it is forgotten.
  const key = `{${prefix}}guard:silent:42`;
  expect(Number(await replicas.redis.cli('PTTL', key))).toBeGreaterThan(0);
  await createGuardStore(a).forget('42');
  expect(await createGuardStore(b).silences('42')).toEqual([]);
});
