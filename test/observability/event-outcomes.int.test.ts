import request from 'supertest';
import type { WebhookPayload } from '../../src/payload/types';
import { MemoryStateStore } from '../../src/state/memory-state-store';
import { StateUnavailableError, type ApplyOutcome, type StateStore } from '../../src/state/state-store';
import { signedRequest, type SignedRequestOptions } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';
import { at, disengagedPayload, engagedPayload, executionPayload, T0 } from '../state/state-events';
import { TIMING } from '../state/store-table';
import { seriesOf } from './audit-sink';

const SECRET = 'events-metrics-secret';
const bundle = bundleFrom({ 'p.yaml': 'kind: Policy\nname: no-dev\nrules:\n  - environments: {blocked: [dev]}\n' });

/** A store with a bug: every update throws something other than StateUnavailableError. */
class BrokenStore extends MemoryStateStore {
  override async apply(): Promise<ApplyOutcome> {
    throw new Error('a bug inside the state store');
  }
}

/** A store that cannot be reached: every update fails the way an unreachable Redis does. */
class UnreachableStore extends MemoryStateStore {
  override async apply(): Promise<ApplyOutcome> {
    throw new StateUnavailableError('Redis (standalone redis:6379) is not connected (reconnecting)');
  }
}

function app(opts: { store?: StateStore; bodyLimit?: string } = {}) {
  const store = opts.store ?? new MemoryStateStore(TIMING);
  const state = {
    store,
    onUnavailable: 'deny' as const,
    emergencyStop: 'enforce' as const,
    eventToleranceMs: TIMING.eventToleranceMs,
  };
  return testApp(bundle, {
    secrets: [SECRET],
    state,
    clock: () => new Date(T0),
    ...(opts.bodyLimit ? { bodyLimit: opts.bodyLimit } : {}),
  });
}
type App = ReturnType<typeof app>['app'];
const send = (a: App, body: WebhookPayload | string, opts: SignedRequestOptions = {}) =>
  signedRequest(a, body, { path: '/events', secret: SECRET, ...opts });

const CREATED = executionPayload('created', 1);
const created = (a: App) => send(a, CREATED);
const withoutId = (p: WebhookPayload) => {
  delete p.execution?.id;
  return p;
};

/** Every way POST /events can be answered: what is sent before (`setup`), then the request counted. */
const cases: Array<{
  name: string;
  setup?: (a: App) => Promise<unknown>;
  send: (a: App) => request.Test;
  status: number;
  series: string;
  store?: StateStore;
  bodyLimit?: string;
}> = [
  {
    name: 'a new execution',
    send: created,
    status: 202,
    series: 'event=experiment.execution.created,outcome=recorded',
  },
  {
    name: 'an engaged emergency stop',
    send: (a) => send(a, engagedPayload(at(T0))),
    status: 202,
    series: 'event=killswitch.engaged,outcome=recorded',
  },
  {
    name: 'a repeated delivery',
    setup: created,
    send: created,
    status: 200,
    series: 'event=experiment.execution.created,outcome=duplicate',
  },
  {
    name: 'a second created of the same execution (another time)',
    setup: created,
    send: (a) => send(a, executionPayload('created', 1, { time: at(T0 - 1000) })),
    status: 200,
    series: 'event=experiment.execution.created,outcome=stale',
  },
  {
    name: 'a replayed disengagement of an older engagement',
    setup: (a) => send(a, engagedPayload(at(T0 - 1000))),
    send: (a) => send(a, disengagedPayload(at(T0), at(T0 - 5000))),
    status: 200,
    series: 'event=killswitch.disengaged,outcome=stale',
  },
  {
    name: 'a disengagement that names no engagement',
    setup: (a) => send(a, engagedPayload(at(T0 - 1000))),
    send: (a) => send(a, { event: 'killswitch.disengaged', time: at(T0), killswitch: {} }),
    status: 200,
    series: 'event=killswitch.disengaged,outcome=unmatched',
  },
  {
    name: 'a disengagement whose killswitch.disengaged lies beyond the tolerance',
    send: (a) => send(a, disengagedPayload(at(T0 + TIMING.eventToleranceMs + 1), at(T0 - 1000), at(T0))),
    status: 200,
    series: 'event=killswitch.disengaged,outcome=outside_tolerance',
  },
  {
    name: 'an event older than the tolerance',
    send: (a) => send(a, executionPayload('failed', 1, { time: at(T0 - TIMING.eventToleranceMs - 1) })),
    status: 200,
    series: 'event=experiment.execution.failed,outcome=outside_tolerance',
  },
  {
    name: 'a step event',
    send: (a) => send(a, executionPayload('step-started', 1)),
    status: 200,
    series: 'event=experiment.execution.step-started,outcome=ignored',
  },
  {
    name: 'an event Steadybit does not list',
    send: (a) => send(a, { event: 'team.created', time: at(T0) }),
    status: 200,
    series: 'event=other,outcome=ignored',
  },
  {
    name: 'an execution event without an id',
    send: (a) => send(a, withoutId(executionPayload('canceled', 1))),
    status: 400,
    series: 'event=experiment.execution.canceled,outcome=invalid',
  },
  {
    name: 'a body that is not JSON',
    send: (a) => send(a, '{"event":'),
    status: 400,
    series: 'event=other,outcome=invalid',
  },
  {
    name: 'a wrong content type',
    send: (a) => send(a, CREATED, { contentType: 'text/plain' }),
    status: 415,
    series: 'event=other,outcome=invalid',
  },
  {
    name: 'a body over the limit',
    send: created,
    status: 413,
    series: 'event=other,outcome=invalid',
    bodyLimit: '100b',
  },
  {
    name: 'a wrong signature (the unsigned body names no event)',
    send: (a) => send(a, CREATED, { secret: 'not-the-secret' }),
    status: 401,
    series: 'event=other,outcome=unauthorized',
  },
  {
    name: 'a missing signature',
    send: (a) => send(a, CREATED, { omitHeader: 'x-sb-signature' }),
    status: 401,
    series: 'event=other,outcome=unauthorized',
  },
  {
    name: 'an unreachable store (503: deliver it again)',
    send: created,
    status: 503,
    series: 'event=experiment.execution.created,outcome=unavailable',
    store: new UnreachableStore(TIMING),
  },
  {
    name: 'a bug in the store (500)',
    send: created,
    status: 500,
    series: 'event=experiment.execution.created,outcome=error',
    store: new BrokenStore(TIMING),
  },
];

describe('every answer to POST /events is counted once in preflight_events_total{event, outcome}', () => {
  it.each(cases)('$name: status $status counts $series', async (c) => {
    const { app: a, metrics } = app({ store: c.store, bodyLimit: c.bodyLimit });
    await c.setup?.(a);
    const before = await seriesOf(metrics, 'preflight_events_total');
    const res = await c.send(a);
    expect([res.status, typeof res.body.message]).toEqual([c.status, 'string']);
    const after = await seriesOf(metrics, 'preflight_events_total');
    const changed = Object.fromEntries(
      Object.entries(after)
        .filter(([k, v]) => v !== (before[k] ?? 0))
        .map(([k, v]) => [k, v - (before[k] ?? 0)]),
    );
    expect(changed).toEqual({ [c.series]: 1 });
  });

  it('requests to other routes count no event', async () => {
    const { app: a, metrics } = app();
    await request(a).get('/events').expect(404);
    await signedRequest(a, '{}', { secret: SECRET }).expect(400);
    const counted = Object.values(await seriesOf(metrics, 'preflight_events_total'));
    expect(counted.length > 0 && counted.every((v) => v === 0)).toBe(true);
  });
});

describe('known labels start at 0 and stay bounded', () => {
  it('every state outcome of the tracked events and every request outcome under event="other" is exported before the first event', async () => {
    const text = (await request(app().app).get('/metrics')).text;
    for (const event of [
      'experiment.execution.created',
      'experiment.execution.canceled',
      'killswitch.engaged',
      'killswitch.disengaged',
    ]) {
      for (const outcome of ['recorded', 'duplicate', 'stale', 'unmatched', 'outside_tolerance', 'unavailable'])
        expect(text).toContain(`preflight_events_total{event="${event}",outcome="${outcome}"} 0`);
    }
    for (const outcome of ['ignored', 'invalid', 'unauthorized', 'error'])
      expect(text).toContain(`preflight_events_total{event="other",outcome="${outcome}"} 0`);
  });

  it('no execution id, team or environment of an event reaches /metrics', async () => {
    const { app: a } = app();
    await send(a, executionPayload('created', 987654321, { team: 'LEAKTEAM', env: 'leak-environment' })).expect(202);
    const text = (await request(a).get('/metrics')).text;
    expect(text).toContain('preflight_events_total{event="experiment.execution.created",outcome="recorded"} 1');
    for (const value of ['987654321', 'LEAKTEAM', 'leak-environment'])
      expect([value, text.includes(value)]).toEqual([value, false]);
  });
});

describe('preflight_state_store_up', () => {
  it('is 1 for the in-memory store', async () => {
    expect((await request(app().app).get('/metrics')).text).toContain('preflight_state_store_up{store="memory"} 1');
  });

  it('has no series when the app has no state store (nothing to report, nothing to alert on)', async () => {
    const text = (await request(testApp(bundle).app).get('/metrics')).text;
    expect(text).toContain('# TYPE preflight_state_store_up gauge');
    expect(text).not.toMatch(/^preflight_state_store_up/m);
  });
});
