import { RateBudget } from '../platform/rate-budget';
import type { Logger } from '../common/logger';
import type { Delivery, Notification } from './notification';
import { dedupeKey } from './dedupe-key';
import type { NotifyCounter } from './notify-metrics';
import { sendDelivery, type SendDeps } from './send-delivery';
import type { TargetConfig } from './target-config';
import { matchesFilter } from './target-filter';
import { sleep } from './timers';

export interface TargetQueueDeps extends Omit<SendDeps, 'giveUp'> {
  count: NotifyCounter;
  logger: Logger;
  newId: () => string;
  dedupeWindowMs: number;
  queueSize: number;
  /** Failures are logged at most once per this many ms per target (each one is counted). */
  logEveryMs?: number;
}

interface Waiting {
  delivery: Delivery;
  timer: unknown;
}

export interface TargetQueue {
  readonly name: string;
  /** Takes the notification if the target's filter wants it; never throws, never waits. */
  offer(n: Notification): void;
  /** Messages held: collapsing or waiting to be sent (at most NOTIFY_QUEUE_SIZE). */
  size(): number;
  /** Sends what waits now (no more retries); resolves when the sender is idle. */
  flush(): Promise<void>;
  /** Gives up: what is still held is dropped and counted. */
  abandon(): void;
}

/**
 * One target's bounded queue. A notification opens a message that waits NOTIFY_DEDUPE_WINDOW for
 * identical ones (each counted into it, `collapsed`); then it waits its turn. One message at a time
 * is sent, at the target's rate limit, with retries (send-delivery.ts). At most `queueSize`
 * messages are held; beyond that a new one is dropped and counted, so a target that hangs or fails
 * costs a bounded amount of memory and never touches a preflight.
 */
export function targetQueue(target: TargetConfig, deps: TargetQueueDeps): TargetQueue {
  const collapsing = new Map<string, Waiting>();
  const ready: Delivery[] = [];
  const budget = new RateBudget(target.rate.burst, target.rate.perMinute, deps.now);
  let sending: Promise<void> | undefined;
  let closing = false;
  const stop = new AbortController();
  let lastLog = -Infinity;

  const logFailure = (message: string, meta: object) => {
    const now = deps.now();
    if (now - lastLog < (deps.logEveryMs ?? 60_000)) return;
    lastLog = now;
    deps.logger.warn(message, { target: target.name, type: target.type, ...meta });
  };

  const sendOne = async (delivery: Delivery) => {
    const wait = budget.reserve(Number.MAX_SAFE_INTEGER) ?? 0;
    if (wait > 0 && !closing) await sleep(deps.timers, wait);
    const result = await sendDelivery(target, delivery, { ...deps, giveUp: () => closing, signal: stop.signal });
    deps.count(target.name, result.outcome);
    if (result.outcome !== 'sent')
      logFailure(`notification not delivered (${result.outcome})`, {
        kind: delivery.notification.kind,
        reason: result.reason,
        attempts: result.attempts,
      });
  };

  const drain = async () => {
    for (let next = ready.shift(); next; next = ready.shift()) {
      try {
        await sendOne(next);
      } catch (err) {
        // A bug in shaping a message must not stop the queue (and is counted as a failure).
        deps.count(target.name, 'failed');
        logFailure('notification could not be built', { error: err instanceof Error ? err.message : String(err) });
      }
    }
    sending = undefined;
  };

  const release = (key: string) => {
    const waiting = collapsing.get(key);
    if (!waiting) return;
    collapsing.delete(key);
    ready.push(waiting.delivery);
    sending ??= drain();
  };

  return {
    name: target.name,
    size: () => collapsing.size + ready.length,
    offer(n) {
      if (!matchesFilter(target.filter, n)) return;
      const key = dedupeKey(n);
      const same = collapsing.get(key);
      if (same) {
        same.delivery.count += 1;
        same.delivery.lastTime = n.time;
        deps.count(target.name, 'collapsed');
        return;
      }
      if (closing || collapsing.size + ready.length >= deps.queueSize) {
        deps.count(target.name, 'dropped');
        logFailure(
          "notification dropped: the target's queue is full (NOTIFY_QUEUE_SIZE); it is slow, failing or rate-limited",
          { queueSize: deps.queueSize },
        );
        return;
      }
      const delivery: Delivery = { id: deps.newId(), notification: n, count: 1, firstTime: n.time, lastTime: n.time };
      collapsing.set(key, { delivery, timer: deps.timers.setTimeout(() => release(key), deps.dedupeWindowMs) });
    },
    async flush() {
      closing = true;
      for (const [key, waiting] of collapsing) {
        deps.timers.clearTimeout(waiting.timer);
        release(key);
      }
      while (sending) await sending;
    },
    abandon() {
      closing = true;
      stop.abort();
      for (const waiting of collapsing.values()) deps.timers.clearTimeout(waiting.timer);
      const held = collapsing.size + ready.length;
      collapsing.clear();
      ready.length = 0;
      if (held > 0) deps.count(target.name, 'dropped', held);
    },
  };
}
