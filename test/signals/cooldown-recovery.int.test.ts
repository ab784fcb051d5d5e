import { createSignalGatherer } from '../../src/signals/signal-gatherer';
import { signalFactSource } from '../../src/signals/signal-fact-source';
import type { GuardrailState } from '../../src/state/guardrail-state';
import { MemoryStateStore } from '../../src/state/memory-state-store';
import { waitFor } from '../helpers/server-process';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';
import type { PrometheusServer } from '../observability/prometheus-server';
import { attackedEvent, attackedRun } from '../helpers/attacked-services';
import { startAlertmanager, type AlertmanagerServer } from './alertmanager-server';
import { startErrorsPrometheus } from './errors-prometheus';

jest.setTimeout(120_000);

const SECRET = 'cooldown-secret';
/** The gate's injected clock: the run ended at T0, and the gate decides at `now`, whatever the wall clock says. */
const T0 = Date.parse('2026-01-05T10:00:00Z');
const MIN = 60_000;
const run = attackedRun;
const event = attackedEvent;

/** What the gate says of checkout once it is back under the threshold but has not held it yet. */
const CHECKOUT_BACK = /deployment="checkout"\} on prometheus "default" is back < 0\.05 since/;

/** The hold query the rule asks about checkout (15 s, every 5 s: the shortest step, three of them). */
const CHECKOUT_Q = 'preflight_test_errors{deployment="checkout"}';
const CHECKOUT_HELD = `time() - max_over_time(timestamp(((${CHECKOUT_Q}) >= 0.05) or absent(${CHECKOUT_Q}))[15s:5s])`;

const POLICY = `kind: Policy
name: checkout-recovers
rules:
  - cooldown:
      per: service
      until:
        - prometheus:
            query: 'preflight_test_errors{deployment="{{target.k8s.deployment}}"}'
            recoveredWhen: "< 0.05"
            for: 15s
        - alerts: { matchers: ['service="{{target.k8s.deployment}}"'] }
`;

describe('a cool-down until the last run recovered, against a real Prometheus and Alertmanager', () => {
  let prom: PrometheusServer;
  let am: AlertmanagerServer;
  const errors: Record<string, number> = { checkout: 0.3, cart: 0 };
  let nowMs = T0;
  let app: ReturnType<typeof testApp>['app'];
  const alert = { labels: { alertname: 'CheckoutErrors', service: 'checkout' } };

  beforeAll(async () => {
    [prom, am] = await Promise.all([startErrorsPrometheus(errors), startAlertmanager()]);
    const gather = createSignalGatherer({
      config: {
        sources: [
          { kind: 'prometheus', name: 'default', url: prom.url },
          { kind: 'alertmanager', name: 'default', url: am.url },
        ],
        cacheTtlMs: 0,
        timeoutMs: 5000,
      },
    });
    const state: GuardrailState = {
      store: new MemoryStateStore({ executionTtlMs: 4 * 60 * MIN, eventToleranceMs: 15 * MIN }),
      onUnavailable: 'deny',
      emergencyStop: 'enforce',
      eventToleranceMs: 15 * MIN,
    };
    ({ app } = testApp(bundleFrom({ 'p.yaml': POLICY }), {
      secrets: [SECRET],
      state,
      factSources: [signalFactSource(gather)],
      clock: () => new Date(nowMs),
    }));
    // Execution 40 attacked checkout and cart and failed at T0 (Steadybit's custom webhook).
    for (const e of [event('created', 40, T0 - 10 * MIN), event('failed', 40, T0)]) {
      const res = await signedRequest(app, e, { path: '/events', secret: SECRET });
      expect(res.status).toBe(202);
    }
  });
  afterAll(async () => {
    await Promise.all([prom?.stop(), am?.stop()]);
  });

  const preflight = () => signedRequest(app, run(42), { secret: SECRET });

  it('denies while the attacked service is still over the threshold, naming the policy, the run and the sample', async () => {
    nowMs = T0 + 5 * MIN;
    const res = await preflight();
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(
      /^Denied by 1 policy: \[checkout-recovers\] service k8s\.deployment=checkout is cooling down until it has recovered from execution 40 \(ended FAILED at 2026-01-05T10:00:00\.000Z\): query preflight_test_errors\{deployment="checkout"\} on prometheus "default" returned \{__name__="preflight_test_errors",deployment="checkout",instance="127\.0\.0\.1:\d+",job="errors"\} 0\.3, not yet < 0\.05; the cool-down ends at the latest at 2026-01-06T10:00:00\.000Z/,
    );
    // cart is back (0) but Prometheus has not held it 15 s yet (no data before its first scrape is not recovered).
    expect(res.body.message).toMatch(
      /service k8s\.deployment=cart is cooling down .*: query preflight_test_errors\{deployment="cart"\} on prometheus "default" is back < 0\.05 since/,
    );
  });

  it('once back under the threshold it says since when and how long remains, then lets the run start', async () => {
    nowMs = T0 + 60 * MIN;
    errors.checkout = 0.01;
    await waitFor(
      async () => CHECKOUT_BACK.test((await preflight()).body.message),
      'the recovery to be scraped',
      20000,
    );
    expect((await preflight()).body.message).toMatch(
      /query preflight_test_errors\{deployment="checkout"\} on prometheus "default" is back < 0\.05 since 2026-01-05T\d\d:\d\d:\d\d\.\d{3}Z, not yet for 15s: \d+s remains/,
    );
    // Prometheus' history, not the gate's clock, says how long it has held: the run may start once it held 15 s.
    await waitFor(async () => (await preflight()).status === 200, 'the hold to pass', 60000);
  });

  it('a relapse within the hold starts it again', async () => {
    errors.checkout = 0.5;
    await waitFor(async () => /0\.5, not yet < 0\.05/.test((await preflight()).body.message), 'the relapse', 20000);
    // The relapse is in the hold's history once a step of it (every 5 s) saw it.
    await waitFor(
      async () => JSON.stringify(await prom.query(CHECKOUT_HELD)).includes('"checkout"'),
      'the relapse on a step',
      20000,
    );
    errors.checkout = 0;
    await waitFor(async () => CHECKOUT_BACK.test((await preflight()).body.message), 'the second recovery', 20000);
  });

  it('an alert on the attacked service that still fires keeps the cool-down on; resolved, the run starts', async () => {
    await waitFor(async () => (await preflight()).status === 200, 'the hold to pass again', 60000);
    await am.post([alert]);
    await waitFor(
      async () => /CheckoutErrors/.test((await preflight()).body.message ?? ''),
      'the alert to be listed',
      20000,
    );
    expect((await preflight()).body.message).toMatch(
      /\[checkout-recovers\] service k8s\.deployment=checkout is cooling down until it has recovered from execution 40 \(ended FAILED at 2026-01-05T10:00:00\.000Z\): 1 alert matching \{service="checkout"\} firing in alertmanager "default" \(read .*\): CheckoutErrors\{service="checkout"\} since /,
    );
    await am.resolve([alert]);
    await waitFor(async () => (await preflight()).status === 200, 'the alert to resolve', 20000);
  });

  it('past atMost the cool-down is over whatever the signals say; a source away denies before then', async () => {
    errors.checkout = 0.9;
    await waitFor(async () => (await preflight()).status === 403, 'the relapse', 20000);
    nowMs = T0 + 25 * 60 * MIN;
    expect((await preflight()).status).toBe(200);
    nowMs = T0 + 60 * MIN;
    await prom.stop();
    const res = await preflight();
    expect(res.status).toBe(403);
    expect(res.body.message).toContain(
      'cannot decide whether service k8s.deployment=checkout has recovered from execution 40 (ended FAILED at 2026-01-05T10:00:00.000Z): query preflight_test_errors{deployment="checkout"} on prometheus "default" could not be read (',
    );
  });
});
