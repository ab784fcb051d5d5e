import { createHash } from 'node:crypto';
import type { Execution, Killswitch, UserSummary, WebhookPayload } from '../payload/types';
import { parseEventTime, type EventTime } from './event-time';
import type { EndState } from '../policy/facts/state-facts';
import { executionScopes } from './execution-scopes';

export { END_STATES, type EndState } from '../policy/facts/state-facts';

const END_EVENTS: Readonly<Record<string, EndState>> = {
  'experiment.execution.completed': 'COMPLETED',
  'experiment.execution.failed': 'FAILED',
  'experiment.execution.errored': 'ERRORED',
  'experiment.execution.canceled': 'CANCELED',
};
const START_EVENT = 'experiment.execution.created';

/** The custom-webhook events that change the tracked state: what `connect` subscribes /events to. */
export const TRACKED_EVENTS: readonly string[] = [
  START_EVENT,
  ...Object.keys(END_EVENTS),
  'killswitch.engaged',
  'killswitch.disengaged',
];

interface EventBase {
  name: string;
  /** The payload's `time`: when Steadybit fired the event (age checks). */
  time: EventTime;
  /** Same event, same execution, same time and state: a repeated delivery. */
  dedupeKey: string;
}

export interface ExecutionEvent extends EventBase {
  kind: 'execution';
  phase: 'started' | 'ended';
  id: string;
  endState?: EndState;
  /** `team:<key>` and `environment:<name or id>` (lower-cased) the run counts against. */
  scopes: string[];
}

export interface KillswitchEvent extends EventBase {
  kind: 'killswitch';
  engaged: boolean;
  /** When the switch changed: `killswitch.engaged` / `.disengaged`, else `time`. Orders the state. */
  changedAt: EventTime;
  by: string;
  /** For a disengagement: the engagement it ends, so a replay cannot end a newer one. */
  endsEngagementAt?: EventTime;
}

export type StateEvent = ExecutionEvent | KillswitchEvent;

export type EventReading =
  | { kind: 'event'; event: StateEvent }
  | { kind: 'ignored'; message: string }
  | { kind: 'invalid'; message: string };

const hash = (parts: unknown[]) => createHash('sha256').update(JSON.stringify(parts)).digest('hex');
const userName = (id?: string, details?: UserSummary) => details?.name ?? details?.username ?? id ?? 'an unknown user';

function optionalTime(text: string | undefined, field: string): EventTime | undefined | string {
  if (text === undefined) return undefined;
  return parseEventTime(text) ?? `${field} is not an RFC 3339 time: "${text}"`;
}

function killswitchEvent(payload: WebhookPayload, time: EventTime, ks: Killswitch): EventReading {
  const engaged = payload.event === 'killswitch.engaged';
  const changed = optionalTime(
    engaged ? ks.engaged : ks.disengaged,
    `killswitch.${engaged ? 'engaged' : 'disengaged'}`,
  );
  const endsAt = engaged ? undefined : optionalTime(ks.engaged, 'killswitch.engaged');
  if (typeof changed === 'string') return { kind: 'invalid', message: changed };
  if (typeof endsAt === 'string') return { kind: 'invalid', message: endsAt };
  const by = engaged ? userName(ks.engagedBy, ks.engagedByDetails) : userName(ks.disengagedBy, ks.disengagedByDetails);
  return {
    kind: 'event',
    event: {
      kind: 'killswitch',
      name: payload.event,
      time,
      engaged,
      changedAt: changed ?? time,
      by,
      endsEngagementAt: endsAt,
      dedupeKey: hash([payload.event, payload.time, ks.engaged, ks.disengaged]),
    },
  };
}

function executionEvent(payload: WebhookPayload, time: EventTime, execution: Execution): EventReading {
  const endState = END_EVENTS[payload.event];
  if (payload.event !== START_EVENT && endState === undefined) {
    return {
      kind: 'ignored',
      message: `ignored: ${payload.event} does not change the tracked state (only created, completed, failed, errored and canceled do)`,
    };
  }
  if (execution.id === undefined)
    return { kind: 'invalid', message: `${payload.event} without execution.id: the execution cannot be tracked` };
  const id = String(execution.id);
  return {
    kind: 'event',
    event: {
      kind: 'execution',
      name: payload.event,
      time,
      id,
      phase: endState ? 'ended' : 'started',
      endState,
      scopes: executionScopes(execution),
      dedupeKey: hash([payload.event, id, payload.time, execution.state]),
    },
  };
}

/** What a custom webhook means for the state: an event to apply, one to ignore, or bad input. */
export function readStateEvent(payload: WebhookPayload): EventReading {
  const isKillswitch = payload.event === 'killswitch.engaged' || payload.event === 'killswitch.disengaged';
  if (!isKillswitch && !payload.event.startsWith('experiment.execution.')) {
    return {
      kind: 'ignored',
      message: `ignored: event "${payload.event}" is not tracked (experiment.execution.* and killswitch.* are)`,
    };
  }
  if (payload.time === undefined)
    return {
      kind: 'invalid',
      message: `${payload.event} without time: the event cannot be ordered or checked for age`,
    };
  const time = parseEventTime(payload.time);
  if (!time) return { kind: 'invalid', message: `time is not an RFC 3339 time: "${payload.time}"` };
  if (isKillswitch) {
    if (!payload.killswitch) return { kind: 'invalid', message: `${payload.event} without killswitch details` };
    return killswitchEvent(payload, time, payload.killswitch);
  }
  if (!payload.execution) return { kind: 'invalid', message: `${payload.event} without execution` };
  return executionEvent(payload, time, payload.execution);
}
