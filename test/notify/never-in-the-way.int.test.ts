import type { Registry } from 'prom-client';
import type { Notifier } from '../../src/notify/notifier';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';
import { signedRequest } from '../helpers/signed-request';
import type { FakeReceiver } from '../helpers/fake-receiver';
import { type manualTimers, until } from '../helpers/manual-timers';
import { webhookNotifier, type WebhookNotifier } from '../helpers/webhook-notifier';
import { decidedRun, NOTIFY_POLICIES, runIn } from './decided-runs';

/** The counts of preflight_notifications_total by outcome (zeros left out). */
async function outcomes(registry: Registry): Promise<Record<string, number>> {
  const metric = await registry.getSingleMetric('preflight_notifications_total')?.get();
  return Object.fromEntries(
    (metric?.values ?? []).filter((v) => v.value > 0).map((v) => [String(v.labels.outcome), v.value]),
  );
}

describe('notifications never get in the way of a preflight', () => {
  let receiver: FakeReceiver;
  let notifier: Notifier;
  let registry: Registry;
  let clock: ReturnType<typeof manualTimers>;

  let under: WebhookNotifier;

  const start = async (env: Record<string, string>) => {
    under = await webhookNotifier(env, { fallback: 'hang' });
    ({ receiver, notifier, registry, clock } = under);
  };
  afterEach(() => under.close());

  it('answers every preflight while the only target hangs, with the same answers as without notifications', async () => {
    await start({ NOTIFY_DEDUPE_WINDOW: '0s' });
    const bundle = bundleFrom(NOTIFY_POLICIES);
    const withNotify = testApp(bundle, { notifier }).app;
    const without = testApp(bundle).app;
    // The first denial is already being delivered (and hangs) when the next preflights come.
    await signedRequest(withNotify, runIn('kube-system')).expect(403);
    await clock.advance(0);
    await until(() => receiver.received.length === 1, 'the hanging delivery');
    for (const ns of ['kube-system', 'payments', 'web']) {
      const a = await signedRequest(
        withNotify,
        runIn(ns, (p) => {
          p.execution.experimentKey = `ADM-${ns}`;
        }),
      );
      const b = await signedRequest(
        without,
        runIn(ns, (p) => {
          p.execution.experimentKey = `ADM-${ns}`;
        }),
      );
      expect([a.status, a.body.message.replace(/decision [\w-]+/, '')]).toEqual([
        b.status,
        b.body.message.replace(/decision [\w-]+/, ''),
      ]);
    }
    // Still the one request in flight: the others wait in the bounded queue.
    expect(receiver.received).toHaveLength(1);
  });

  it('holds at most NOTIFY_QUEUE_SIZE messages when 1,000 different denials come at once to a hanging target; the rest are dropped and counted', async () => {
    await start({ NOTIFY_QUEUE_SIZE: '100', NOTIFY_DEDUPE_WINDOW: '10s', NOTIFY_MAX_ATTEMPTS: '1' });
    for (let i = 0; i < 1000; i++)
      notifier.decided(
        decidedRun(
          runIn('kube-system', (p) => {
            p.execution.experimentKey = `EXP-${i}`;
          }),
          `d-${i}`,
        ),
      );
    await clock.advance(10_000);
    await until(() => receiver.received.length === 1, 'the first delivery');
    expect(await outcomes(registry)).toEqual({ dropped: 900 });
    // A timed-out attempt (5 s, NOTIFY_TIMEOUT_MS) fails the message; the next one goes out, one at a time.
    await clock.advance(5_000);
    await until(async () => (await outcomes(registry)).failed === 1, 'the first failure');
    await until(() => receiver.received.length === 2, 'the second delivery');
  });

  it('sends 1,000 identical denials within the window as one message with a count of 1,000', async () => {
    await start({ NOTIFY_DEDUPE_WINDOW: '30s' });
    receiver.script({ status: 204 });
    for (let i = 0; i < 1000; i++) notifier.decided(decidedRun(runIn('kube-system'), `d-${i}`));
    await clock.advance(30_000);
    await until(async () => (await outcomes(registry)).sent === 1, 'the message');
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0].body).data.count).toBe(1000);
    expect(await outcomes(registry)).toEqual({ sent: 1, collapsed: 999 });
  });

  it("keeps to the target's rate limit: beyond its burst, messages wait for the bucket to refill", async () => {
    await start({ NOTIFY_DEDUPE_WINDOW: '0s' });
    receiver.script(...Array.from({ length: 12 }, () => ({ status: 200 })));
    for (let i = 0; i < 12; i++)
      notifier.decided(
        decidedRun(
          runIn('kube-system', (p) => {
            p.execution.experimentKey = `EXP-${i}`;
          }),
          `d-${i}`,
        ),
      );
    await clock.advance(0);
    // The default limit: a burst of 10, then 30 a minute (one every 2 s).
    await until(() => receiver.received.length === 10, 'the burst');
    await until(() => clock.delays.includes(2000), 'the wait for a token');
    expect(receiver.received).toHaveLength(10);
    await clock.advance(2000);
    await until(() => receiver.received.length === 11, 'the 11th after 2 s');
  });
});
