import type { Mode, PolicyResultKind } from '../policy/core/decision';

/**
 * What a person is told about: a run denied, allowed with warnings, allowed because an exception
 * waived a policy, stopped while running (by the run guard), a run's dead-man signal silent too
 * long (reported by the run guard, the run goes on), a policy reload rejected, the
 * emergency stop engaged or released. The names are those of the filters (`events:`) and the
 * generic webhook's `type` (`preflight-gate.<kind>`).
 */
export const NOTIFICATION_KINDS = [
  'denied',
  'warned',
  'waived',
  'stopped',
  'signal-silent',
  'policy-rejected',
  'emergency-stop-engaged',
  'emergency-stop-released',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The run a notification is about, as Steadybit names it; `url` links to its run view. */
export interface NotifiedRun {
  executionId?: number;
  experimentKey?: string;
  experimentName?: string;
  team?: string;
  /** The environment as sent (an id or a name). */
  environment?: string;
  /** Its Steadybit name, when the Platform API told it (docs/platform-api.md). */
  environmentName?: string;
  /** Why its Steadybit name cannot be known, when the Platform API was asked and could not tell it. */
  environmentNameUnknown?: string;
  startedBy?: string;
  url?: string;
}

/** A policy that found something, or was waived, with its reasons (target values masked as the audit log's). */
export interface NotifiedPolicy {
  policy: string;
  mode: Mode;
  result: PolicyResultKind;
  reasons: string[];
  /** The exception that waived it. */
  exception?: string;
}

/** One notification, before it is shaped for a target (docs/notifications.md, "The generic webhook"). */
export interface Notification {
  kind: NotificationKind;
  /** When it happened (RFC 3339). */
  time: string;
  /** One line a person reads first, e.g. `Run 4711 of ADM-12 denied by prod-freeze`. */
  title: string;
  /** What the run was told (a denial's message), or what happened. */
  message: string;
  decisionId?: string;
  run?: NotifiedRun;
  policies: NotifiedPolicy[];
  /** How to ask for an exception (denials; NOTIFY_EXCEPTION_HELP). */
  exceptionHelp?: string;
  /** The policy revision the decision was made on, or (policy-rejected) the one still served. */
  revision?: string;
  /** policy-rejected: the problems, `file:line:col: message`. */
  problems?: string[];
  /** emergency-stop-*: who engaged or released it; stopped: who or what stopped the run. */
  by?: string;
}

/** A notification as delivered: the same one `count` times within the dedupe window (1: once). */
export interface Delivery {
  /** Unique per message sent (the generic webhook's `webhook-id`): retries of it keep it. */
  id: string;
  notification: Notification;
  count: number;
  /** When the first and the last of the collapsed ones happened. */
  firstTime: string;
  lastTime: string;
}
