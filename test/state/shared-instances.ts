import type { RedisStateStore } from '../../src/state/redis-state-store';
import { guardrailApp } from './guardrail-app';
import { at, executionPayload, T0 } from './state-events';

const POLICIES = {
  'p.yaml': 'kind: Policy\nname: one-at-a-time\nrules:\n  - concurrency: {maxRunning: 1, per: environment}\n',
};

/**
 * Two service instances on `a` and `b` (same prefix): every event reaches both at once (a
 * redelivery landing on the other replica), all in parallel. Each counts exactly once; what one
 * instance receives, the other decides on.
 */
export async function concurrentEventsAtTwoInstances(a: RedisStateStore, b: RedisStateStore): Promise<void> {
  const gates = [guardrailApp(a, { files: POLICIES }), guardrailApp(b, { files: POLICIES })];
  const ids = Array.from({ length: 120 }, (_, i) => 100 + i);
  const sends = ids.flatMap((id) =>
    gates.map((g) => g.event(executionPayload('created', id, { env: 'parallel', team: 'PAR', time: at(T0 - 2000) }))),
  );
  const statuses = (await Promise.all(sends)).map((r) => r.status);
  expect([statuses.filter((s) => s === 202).length, statuses.filter((s) => s === 200).length]).toEqual([120, 120]);
  const ends = ids
    .filter((id) => id % 4 === 0)
    .flatMap((id) =>
      gates.map((g) => g.event(executionPayload('errored', id, { env: 'parallel', team: 'PAR', time: at(T0 - 1000) }))),
    );
  await Promise.all(ends);
  const view = await b.read(
    {
      emergencyStop: false,
      running: true,
      scopes: ['environment:parallel', 'team:par'],
      endedSinceMs: T0 - 60_000,
      startedSinceMs: T0 - 60_000,
    },
    new Date(T0),
  );
  expect([
    view.running?.['environment:parallel'].length,
    view.ended?.['environment:parallel'].length,
    view.started?.['team:par'].length,
  ]).toEqual([90, 30, 120]);
  const denied = await gates[0].preflight(1, 'parallel');
  expect([denied.status, denied.body.message]).toEqual([
    403,
    expect.stringContaining('environment parallel already has 90 running executions'),
  ]);
}
