import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Registry } from 'prom-client';
import { Webhook } from 'standardwebhooks';
import type { Notifier } from '../../src/notify/notifier';
import { ROOT } from '../helpers/server-process';
import type { Answer, FakeReceiver, Received } from '../helpers/fake-receiver';
import { type manualTimers, until } from '../helpers/manual-timers';
import { WEBHOOK_SECRET, webhookNotifier, type WebhookNotifier } from '../helpers/webhook-notifier';
import { decidedRun, runIn } from './decided-runs';

const schema = JSON.parse(readFileSync(join(ROOT, 'docs', 'notification-webhook.schema.json'), 'utf8')) as object;
const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);
const validBody = ajv.compile(schema);

/**
 * What a receiver built on the `standardwebhooks` package accepts: a good signature, a timestamp
 * within its 5 minutes of the real clock (the test's clock starts at the real time), a documented body.
 */
function receiverCheck() {
  const verifier = new Webhook(WEBHOOK_SECRET);
  return (r: Received): string | undefined => {
    const headers = {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    };
    try {
      verifier.verify(r.body, headers);
    } catch (err) {
      return `signature: ${(err as Error).message}`;
    }
    return validBody(JSON.parse(r.body)) ? undefined : `body: ${ajv.errorsText(validBody.errors)}`;
  };
}

describe('the generic webhook (NOTIFY_WEBHOOK_URL + NOTIFY_WEBHOOK_SECRET)', () => {
  let receiver: FakeReceiver;
  let notifier: Notifier;
  let registry: Registry;
  let clock: ReturnType<typeof manualTimers>;
  const metric = async () =>
    (await registry.getSingleMetricAsString('preflight_notifications_total'))
      .split('\n')
      .filter((l) => !l.startsWith('#') && !l.endsWith(' 0'))
      .join('\n');

  let under: WebhookNotifier;

  const start = async (env: Record<string, string> = {}, fallback?: Answer) => {
    under = await webhookNotifier(
      { STEADYBIT_URL: 'https://platform.steadybit.com', ...env },
      { check: receiverCheck(), fallback },
    );
    ({ receiver, notifier, registry, clock } = under);
  };
  afterEach(() => under.close());

  it('sends a denial once its dedupe window closed: signed (verified by the standardwebhooks package), the documented body, target values masked', async () => {
    await start();
    notifier.decided(decidedRun(runIn('kube-system')));
    await clock.advance(29_000);
    expect(receiver.received).toHaveLength(0);
    await clock.advance(1_000);
    await until(() => receiver.received.length === 1, 'the denial');
    expect(receiver.problems).toEqual([]);
    const body = JSON.parse(receiver.received[0].body);
    expect(body).toMatchObject({
      type: 'preflight-gate.denied',
      version: 1,
      timestamp: '2026-03-02T10:00:00.000Z',
      data: {
        kind: 'denied',
        title: 'Run 1 of ADM-1 denied by no-kube-system',
        decisionId: 'd-1',
        count: 1,
        run: {
          executionId: 1,
          experimentKey: 'ADM-1',
          team: 'ADM',
          url: 'https://platform.steadybit.com/experiments/ADM-1/executions/1',
        },
        policies: [
          {
            policy: 'no-kube-system',
            mode: 'enforce',
            result: 'deny',
            reasons: [
              'target [redacted] of step "com.steadybit.extension_kubernetes.delete_pod" (steps[0]) has k8s.namespace=[redacted], which is forbidden',
            ],
          },
        ],
        exceptionHelp: expect.stringContaining('Exception'),
      },
    });
    expect(receiver.received[0].body).not.toMatch(/namespace=kube-system|checkout-7d9f/);
    expect(receiver.received[0].headers['webhook-id']).toMatch(/^msg_/);
    await until(async () => (await metric()) !== '', 'counted');
    expect(await metric()).toBe('preflight_notifications_total{target="webhook",outcome="sent"} 1');
  });

  it('tells only of denials by default: an allowed run with a warning or a waiver sends nothing', async () => {
    await start();
    notifier.decided(decidedRun(runIn('payments')));
    notifier.decided(decidedRun(runIn('staging-db')));
    notifier.decided(decidedRun(runIn('web')));
    await clock.advance(60_000);
    expect(clock.pending()).toBe(0);
    expect(receiver.received).toHaveLength(0);
  });

  it('collapses 50 identical denials (a client retrying) into one message with a count', async () => {
    await start();
    for (let i = 0; i < 50; i++) notifier.decided(decidedRun(runIn('kube-system'), `d-${i}`));
    await clock.advance(30_000);
    await until(() => receiver.received.length === 1, 'the collapsed denial');
    await until(async () => (await metric()).includes('sent'), 'counted');
    await clock.advance(60_000);
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0].body).data).toMatchObject({
      count: 50,
      decisionId: 'd-0',
      title: 'Run 1 of ADM-1 denied by no-kube-system',
    });
    expect(await metric()).toBe(
      [
        'preflight_notifications_total{target="webhook",outcome="sent"} 1',
        'preflight_notifications_total{target="webhook",outcome="collapsed"} 49',
      ].join('\n'),
    );
  });

  it('retries a 500 after a jittered backoff and sends once the receiver answers 200; the retry keeps its webhook-id and is signed anew', async () => {
    await start();
    receiver.script({ status: 500 });
    notifier.decided(decidedRun(runIn('kube-system')));
    await clock.advance(30_000);
    await until(() => receiver.received.length === 1, 'the first attempt');
    await until(() => clock.delays.includes(250), 'the backoff');
    await clock.advance(250);
    await until(() => receiver.received.length === 2, 'the retry');
    expect(receiver.received[1].headers['webhook-id']).toBe(receiver.received[0].headers['webhook-id']);
    expect(receiver.problems).toEqual([]);
    await until(async () => (await metric()).includes('sent'), 'counted');
    expect(await metric()).toBe('preflight_notifications_total{target="webhook",outcome="sent"} 1');
  });

  it('waits as long as a 429 says in Retry-After before trying again', async () => {
    await start();
    receiver.script({ status: 429, headers: { 'retry-after': '42' } });
    notifier.decided(decidedRun(runIn('kube-system')));
    await clock.advance(30_000);
    await until(() => clock.delays.includes(42_000), 'the Retry-After wait');
    await clock.advance(41_999);
    expect(receiver.received).toHaveLength(1);
    await clock.advance(1);
    await until(() => receiver.received.length === 2, 'the retry after 42 s');
    await until(async () => (await metric()).includes('sent'), 'counted');
    expect(await metric()).toBe('preflight_notifications_total{target="webhook",outcome="sent"} 1');
  });

  it('does not retry a 4xx: the message is counted as rejected', async () => {
    await start({}, { status: 410 });
    notifier.decided(decidedRun(runIn('kube-system')));
    await clock.advance(30_000);
    await until(() => receiver.received.length === 1, 'the attempt');
    await until(async () => (await metric()).includes('outcome="rejected"} 1'), 'counted as rejected');
    await clock.advance(600_000);
    expect(receiver.received).toHaveLength(1);
  });

  it('gives up on a target that never answers after NOTIFY_MAX_ATTEMPTS timed-out attempts, counted as failed', async () => {
    await start({ NOTIFY_MAX_ATTEMPTS: '3', NOTIFY_TIMEOUT_MS: '2000' }, 'hang');
    notifier.decided(decidedRun(runIn('kube-system')));
    await clock.advance(30_000);
    for (let n = 1; n <= 3; n++) {
      await until(() => receiver.received.length === n, `attempt ${n}`);
      await clock.advance(2_000); // the attempt's timeout: no answer came
      if (n === 3) break;
      await until(() => clock.pending() === 1, `the backoff after attempt ${n}`);
      await clock.advance(clock.delays[clock.delays.length - 1]);
    }
    await until(async () => (await metric()).includes('outcome="failed"} 1'), 'counted as failed');
    expect(receiver.received).toHaveLength(3);
  });
});
