import type { RedisStateStore } from '../../src/state/redis-state-store';
import { waitFor } from '../helpers/server-process';
import { guardrailApp } from './guardrail-app';
import { at, engagedPayload, executionPayload, T0 } from './state-events';

type Gate = ReturnType<typeof guardrailApp>;

/** What the service instances answered while Redis failed over, and what the state held afterwards. */
export interface LoadReport {
  preflights: { allowed: number; denied: number; unavailable: number; other: number };
  events: { acknowledged: number; refused: number; other: number };
  /** From the start of the disruption to the last preflight answered 503 (0: none was). */
  preflightRecoveryMs: number;
  /** From the start of the disruption to the last event refused (503), redeliveries included. */
  eventRecoveryMs: number;
  /** Events answered 2xx that the state does not hold after recovery. */
  lost: string[];
  /** The last few refusals (503 messages), with their time since the disruption started. */
  lastRefusals: string[];
}

const POLICIES = {
  'one-at-a-time.yaml':
    'kind: Policy\nname: one-at-a-time\nrules:\n  - concurrency: {maxRunning: 1, per: environment}\n',
};
/** Consecutive rounds in which every answer was the state's own: the service has recovered. */
const RECOVERED_AFTER = 20;

/**
 * Two service instances (each its own client) share `stores[0..1]`'s state. The emergency stop is
 * engaged and one run is running, so every preflight must be denied: 403 (the state says so) or
 * 503 (the state cannot be read, STATE_UNAVAILABLE=deny); a 2xx would be a silent allow. Meanwhile
 * both instances receive new runs (`created`); a refused event (503) is delivered again, as
 * Steadybit would, until it is acknowledged. `disrupt` fails Redis over mid-load; afterwards
 * `verify` (a fresh client) must hold every acknowledged run.
 */
export async function failoverUnderLoad(
  stores: RedisStateStore[],
  verify: () => Promise<RedisStateStore>,
  disrupt: () => Promise<void>,
  env: string,
): Promise<LoadReport> {
  const gates: Gate[] = stores.map((store) => guardrailApp(store, { files: POLICIES }));
  const engaged = await gates[0].event(engagedPayload(at(T0 - 5000), 'jane'));
  const first = await gates[1].event(executionPayload('created', 1, { env, time: at(T0 - 4000) }));
  expect([engaged.status, engaged.body.message, first.status]).toEqual([
    202,
    `recorded: emergency stop engaged by jane at ${at(T0 - 5000)}`,
    202,
  ]);
  const report: LoadReport = {
    preflights: { allowed: 0, denied: 0, unavailable: 0, other: 0 },
    events: { acknowledged: 1, refused: 0, other: 0 },
    preflightRecoveryMs: 0,
    eventRecoveryMs: 0,
    lost: [],
    lastRefusals: [],
  };
  const acknowledged = new Set<number>([1]);
  const pending: number[] = [];
  let next = 2;
  let t0: number | undefined;
  let streak = 0;

  const round = async (i: number) => {
    const gate = gates[i % gates.length];
    const id = pending.shift() ?? next++;
    const [event, preflight] = await Promise.all([
      gate.event(executionPayload('created', id, { env, time: at(T0 - 3000) })),
      gate.preflight(100_000 + i, env),
    ]);
    const now = Date.now();
    for (const res of [event, preflight]) {
      if (res.status === 503)
        report.lastRefusals = [...report.lastRefusals.slice(-3), `+${now - (t0 ?? now)} ms ${res.body.message}`];
    }
    let clean = true;
    if (event.status === 202 || event.status === 200) {
      report.events.acknowledged += acknowledged.has(id) ? 0 : 1;
      acknowledged.add(id);
    } else {
      clean = false;
      pending.push(id);
      if (event.status === 503) report.events.refused++;
      else report.events.other++;
      if (t0 !== undefined) report.eventRecoveryMs = now - t0;
    }
    if (preflight.status >= 200 && preflight.status < 300) report.preflights.allowed++;
    else if (preflight.status === 403) report.preflights.denied++;
    else if (preflight.status === 503) {
      report.preflights.unavailable++;
      clean = false;
      if (t0 !== undefined) report.preflightRecoveryMs = now - t0;
    } else report.preflights.other++;
    streak = clean ? streak + 1 : 0;
  };

  let running = true;
  let rounds = 0;
  const load = (async () => {
    while (running) await round(rounds++);
  })();
  try {
    await waitFor(async () => rounds >= 10, 'the load to start');
    t0 = Date.now();
    await disrupt();
    streak = 0;
    await waitFor(
      async () => streak >= RECOVERED_AFTER && pending.length === 0,
      "the service to recover (every answer the state's own again)",
      60_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; so far: ${JSON.stringify(report)}`);
    });
  } finally {
    running = false;
    await load;
  }
  const reader = await verify();
  const view = await reader.read({ emergencyStop: true, running: true, scopes: [`environment:${env}`] }, new Date(T0));
  const held = new Set((view.running?.[`environment:${env}`] ?? []).map((r) => r.id));
  report.lost = [...acknowledged].map(String).filter((id) => !held.has(id));
  expect(view.emergencyStop?.engaged).toBe(true);
  return report;
}
