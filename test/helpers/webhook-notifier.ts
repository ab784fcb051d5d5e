import { Registry } from 'prom-client';
import { createNotifier, type Notifier } from '../../src/notify/notifier';
import { parseNotifyConfig } from '../../src/notify/notify-config';
import { createLogger } from '../../src/common/logger';
import { startFakeReceiver, type Answer, type FakeReceiver, type Received } from './fake-receiver';
import { manualTimers } from './manual-timers';

/** The generic webhook's signing secret in the notify tests (a standard-webhooks `whsec_` secret). */
export const WEBHOOK_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

/** A notifier sending to a fake receiver as the generic webhook, on a manual clock. */
export interface WebhookNotifier {
  receiver: FakeReceiver;
  notifier: Notifier;
  registry: Registry;
  clock: ReturnType<typeof manualTimers>;
  /** Closes the notifier (no grace) and the receiver: each test's afterEach. */
  close(): Promise<void>;
}

/**
 * A fake receiver (validating with `check`, answering `fallback` when nothing is scripted) and a
 * notifier configured by NOTIFY_WEBHOOK_URL (the receiver), NOTIFY_WEBHOOK_SECRET and `env`,
 * target values redacted, on manual timers started at the real time, with its own metrics registry.
 */
export async function webhookNotifier(
  env: Record<string, string>,
  receiverOptions: { check?: (r: Received) => string | undefined; fallback?: Answer } = {},
): Promise<WebhookNotifier> {
  const clock = manualTimers(Date.now());
  const receiver = await startFakeReceiver(receiverOptions);
  const registry = new Registry();
  const config = parseNotifyConfig({ NOTIFY_WEBHOOK_URL: receiver.url, NOTIFY_WEBHOOK_SECRET: WEBHOOK_SECRET, ...env });
  const notifier = createNotifier(config, {
    registry,
    logger: createLogger('error', { silent: true }),
    redaction: { kind: 'all' },
    timers: clock.timers,
    now: clock.now,
    random: () => 0.5,
  });
  return {
    receiver,
    notifier,
    registry,
    clock,
    async close() {
      const closing = notifier.close(0);
      await clock.advance(0);
      await closing;
      await receiver.close();
    },
  };
}
