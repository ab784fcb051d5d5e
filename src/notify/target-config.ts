import type { Mode } from '../policy/core/decision';
import type { NotificationKind } from './notification';
import type { WebhookSecret } from './standard-webhook-signature';

export const TARGET_TYPES = ['slack', 'teams', 'webhook', 'alertmanager'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

/** Which notifications a target gets: every list given must match (a list left out matches all). */
export interface TargetFilter {
  events: readonly NotificationKind[];
  /** Team keys of the run. */
  teams?: readonly string[];
  /** Environment names or ids of the run (either matches). */
  environments?: readonly string[];
  /** At least one policy of the notification is named here. */
  policies?: readonly string[];
  /** At least one policy of the notification has one of these modes. */
  modes?: readonly Mode[];
}

/** One place notifications go (docs/notifications.md). */
export interface TargetConfig {
  /** The `target` label of preflight_notifications_total, and `notify --test --target <name>`. */
  name: string;
  type: TargetType;
  /** Slack/Teams: the incoming webhook URL (a secret); webhook: the receiver; alertmanager: its base URL. */
  url: string;
  /** webhook: the Standard Webhooks secret. */
  secret?: WebhookSecret;
  filter: TargetFilter;
  rate: { perMinute: number; burst: number };
  /** alertmanager: how long an alert about a run stays firing (endsAt). */
  resolveAfterMs: number;
}

export interface NotifyConfig {
  targets: TargetConfig[];
  /** NOTIFY_RUN_URL (default from STEADYBIT_URL): the link to a run. */
  runUrl?: string;
  /** NOTIFY_EXCEPTION_HELP: how to ask for an exception, said with every denial. */
  exceptionHelp: string;
  /** NOTIFY_DEDUPE_WINDOW (default 30s): identical notifications within it are one message with a count. */
  dedupeWindowMs: number;
  /** NOTIFY_QUEUE_SIZE (default 500): messages waiting per target; beyond it they are dropped and counted. */
  queueSize: number;
  /** NOTIFY_TIMEOUT_MS (default 5000): the longest one delivery attempt may take. */
  timeoutMs: number;
  /** NOTIFY_MAX_ATTEMPTS (default 5): attempts per message for 5xx, 429 and network errors. */
  maxAttempts: number;
}
