import { randomUUID } from 'node:crypto';
import type { Registry } from 'prom-client';
import type { AttributeRedaction } from '../redaction/attribute-redaction';
import type { Logger } from '../common/logger';
import type { Notification } from './notification';
import { decisionNotifications, type DecidedRun } from './decision-notifications';
import { notifyMetrics } from './notify-metrics';
import type { NotifyConfig } from './target-config';
import { targetQueue, type TargetQueue } from './target-queue';
import { realTimers, sleep, type Timers } from './timers';

/** Where the service hands over what happened; every method returns at once and never throws. */
export interface Notifier {
  /** A decision, after its answer was sent: denied, warned or waived notifications. */
  decided(run: DecidedRun): void;
  /** Any other notification (policy-rejected, emergency stop, stopped). */
  notify(n: Notification): void;
  /** Sends what is held, for at most `deadlineMs`; then drops (and counts) the rest. */
  close(deadlineMs: number): Promise<void>;
}

export interface NotifierDeps {
  registry: Registry;
  logger: Logger;
  /** The audit log's redaction (AUDIT_REDACT_ATTRIBUTES): notifications mask target values as it does. */
  redaction: AttributeRedaction;
  fetch?: typeof fetch;
  timers?: Timers;
  now?: () => number;
  random?: () => number;
  newId?: () => string;
}

/** Decisions waiting for the next turn of the event loop; beyond this many in one turn they are not looked at. */
const MAX_PENDING = 10_000;

/** Does nothing: no target is configured. */
export const silentNotifier: Notifier = {
  decided: () => undefined,
  notify: () => undefined,
  close: async () => undefined,
};

/**
 * The notifier of docs/notifications.md: one bounded queue per target. A decision is turned into
 * notifications on the next turn of the event loop, after the answers of this turn went out, so
 * notifying never delays or changes a decision; an error while doing it is logged, never thrown.
 */
export function createNotifier(config: NotifyConfig, deps: NotifierDeps): Notifier {
  if (config.targets.length === 0) return silentNotifier;
  const count = notifyMetrics(
    deps.registry,
    config.targets.map((t) => t.name),
  );
  const timers = deps.timers ?? realTimers;
  const now = deps.now ?? Date.now;
  const newId = deps.newId ?? (() => `msg_${randomUUID()}`);
  const queues: TargetQueue[] = config.targets.map((target) =>
    targetQueue(target, {
      fetch: deps.fetch ?? fetch,
      timers,
      now,
      random: deps.random,
      newId,
      count,
      logger: deps.logger,
      timeoutMs: config.timeoutMs,
      maxAttempts: config.maxAttempts,
      dedupeWindowMs: config.dedupeWindowMs,
      queueSize: config.queueSize,
    }),
  );
  const options = { redaction: deps.redaction, runUrl: config.runUrl, exceptionHelp: config.exceptionHelp };
  let pending: DecidedRun[] = [];
  let closed = false;

  const notify = (n: Notification) => {
    for (const queue of queues) queue.offer(n);
  };
  const turn = () => {
    const runs = pending;
    pending = [];
    for (const run of runs) {
      try {
        for (const n of decisionNotifications(run, options)) notify(n);
      } catch (err) {
        deps.logger.error('notifications of a decision could not be built', {
          decisionId: run.decision.id,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }
  };

  return {
    decided(run) {
      if (closed || pending.length >= MAX_PENDING) return;
      if (pending.push(run) === 1) setImmediate(turn);
    },
    notify(n) {
      if (!closed) notify(n);
    },
    async close(deadlineMs) {
      closed = true;
      turn();
      let timedOut = false;
      const flushed = Promise.all(queues.map((q) => q.flush()));
      await Promise.race([
        flushed,
        sleep(timers, deadlineMs).then(() => {
          timedOut = true;
        }),
      ]);
      if (timedOut) for (const q of queues) q.abandon();
    },
  };
}
