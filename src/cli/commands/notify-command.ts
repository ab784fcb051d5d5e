import { parseNotifyConfig } from '../../notify/notify-config';
import { sampleNotification } from '../../notify/sample-notification';
import { sendDelivery, type SendDeps } from '../../notify/send-delivery';
import { keptTimers } from '../../notify/timers';
import { EXIT } from '../exit-codes';
import { BadInputError, readSettings } from '../../common/bad-input-error';

export interface NotifyOptions {
  test?: boolean;
  target?: string;
}

/** What the command is given besides the options; tests pass a fake fetch and timers. */
export type NotifyCommandDeps = Partial<Pick<SendDeps, 'fetch' | 'timers' | 'now'>>;

/**
 * `preflight-gate notify --test --target <name>`: sends a sample denial, marked `[test]`, to one
 * configured target, with the service's settings (NOTIFY_*, STEADYBIT_URL) and its retries, and
 * says what came of it. Exit 0 when the target answered 2xx, 1 when not, 2 when the target is not
 * configured or the settings are invalid.
 */
export async function notifyCommand(
  opts: NotifyOptions,
  env: NodeJS.ProcessEnv,
  write: (s: string) => void,
  deps: NotifyCommandDeps = {},
): Promise<number> {
  if (!opts.test) throw new BadInputError('notify only sends a test message so far: give --test --target <name>');
  if (!opts.target)
    throw new BadInputError(
      'give --target <name>, one of the targets of NOTIFY_WEBHOOK_URL (named webhook) or NOTIFY_TARGETS_FILE',
    );
  const config = readSettings(() => parseNotifyConfig(env));
  const target = config.targets.find((t) => t.name === opts.target);
  if (!target) {
    const names = config.targets.map((t) => t.name);
    throw new BadInputError(
      `no notification target named "${opts.target}"; ${names.length > 0 ? `configured: ${names.join(', ')}` : 'none is configured (set NOTIFY_WEBHOOK_URL and NOTIFY_WEBHOOK_SECRET, or NOTIFY_TARGETS_FILE)'}`,
    );
  }
  const now = deps.now ?? Date.now;
  const notification = sampleNotification(new Date(now()), config.runUrl, config.exceptionHelp);
  const delivery = {
    id: `msg_test_${now()}`,
    notification,
    count: 1,
    firstTime: notification.time,
    lastTime: notification.time,
  };
  const result = await sendDelivery(target, delivery, {
    fetch: deps.fetch ?? fetch,
    timers: deps.timers ?? keptTimers,
    now,
    timeoutMs: config.timeoutMs,
    maxAttempts: config.maxAttempts,
  });
  const attempts = `${result.attempts} attempt${result.attempts === 1 ? '' : 's'}`;
  if (result.outcome === 'sent') {
    write(`sent a test message to ${target.name} (${target.type}): HTTP ${result.status} after ${attempts}\n`);
    return EXIT.ok;
  }
  write(
    `the test message to ${target.name} (${target.type}) was not delivered (${result.outcome}): ${result.reason}\n`,
  );
  return EXIT.failed;
}
