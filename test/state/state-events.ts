import type { WebhookPayload } from '../../src/payload/types';
import { readStateEvent, type StateEvent } from '../../src/state/state-event';

/** 2026-01-05T10:00:00Z: the tests' "now". */
export const T0 = Date.parse('2026-01-05T10:00:00Z');

/** An RFC 3339 time with nine fractional digits, like Steadybit's `time`: `ms` plus `nanos` (0..999999). */
export function at(ms: number, nanos = 0): string {
  return new Date(ms).toISOString().replace(/Z$/, `${String(nanos).padStart(6, '0')}Z`);
}

interface RunOptions {
  team?: string;
  env?: string;
  override?: string;
  time?: string;
}

export function executionPayload(event: string, id: number, o: RunOptions = {}): WebhookPayload {
  return {
    event: `experiment.execution.${event}`,
    time: o.time ?? at(T0),
    execution: {
      id,
      experimentKey: 'ADM-1',
      teamKey: o.team ?? 'ADM',
      environment: o.env ?? 'prod',
      state: event.toUpperCase(),
      ...(o.override ? { overrides: { environment: o.override } } : {}),
    },
  };
}

export function engagedPayload(engaged: string, by = 'jane', time = engaged): WebhookPayload {
  return { event: 'killswitch.engaged', time, killswitch: { engagedBy: by, engaged } };
}

export function disengagedPayload(disengaged: string, engaged: string, time = disengaged): WebhookPayload {
  return {
    event: 'killswitch.disengaged',
    time,
    killswitch: { engagedBy: 'jane', engaged, disengagedBy: 'joe', disengaged },
  };
}

/** The state event a payload means; throws when it means none (a broken test, not a result). */
export function stateEvent(payload: WebhookPayload): StateEvent {
  const reading = readStateEvent(payload);
  if (reading.kind !== 'event') throw new Error(`not a state event: ${reading.message}`);
  return reading.event;
}

export const created = (id: number, o?: RunOptions) => stateEvent(executionPayload('created', id, o));
export const ended = (id: number, how: 'completed' | 'failed' | 'errored' | 'canceled', o?: RunOptions) =>
  stateEvent(executionPayload(how, id, o));
