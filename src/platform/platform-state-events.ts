import { createHash } from 'node:crypto';
import { parseEventTime, type EventTime } from '../state/event-time';
import { scopeKey } from '../state/execution-scopes';
import { END_STATES, type EndState, type ExecutionEvent, type KillswitchEvent } from '../state/state-event';
import type { ExecutionItem, KillswitchStatus } from './platform-endpoints';

/**
 * How Platform API answers enter the state kept from custom-webhook events (docs/platform-api.md,
 * "Ordering"): as events of their own, through the same store and the same ordering rules.
 *
 * An answer is as of the moment it was read. "Engaged" carries its engagement time (`engaged`), so
 * it orders exactly like the `killswitch.engaged` event it repeats. "Not engaged" is dated the moment
 * the request was sent, less CLOCK_ALLOWANCE_MS for the difference between our clock and
 * Steadybit's: an engagement event dated after that stays in force until the next read confirms it.
 */
export const CLOCK_ALLOWANCE_MS = 5_000;

/** States whose runs count as running (runs starting count too: the spec does not say which states are terminal). */
export const RUNNING_STATES = ['CREATED', 'PREPARED', 'RUNNING'] as const;

const hash = (parts: unknown[]) => createHash('sha256').update(JSON.stringify(parts)).digest('hex');
const timeAt = (ms: number): EventTime => parseEventTime(new Date(ms).toISOString()) as EventTime;

/**
 * The kill switch as the platform answered a read sent at `sentAtMs`. A disengagement must name the
 * engagement it ends (killswitch-state.ts): "not engaged" ends `storeEngagedAt`, the engagement the
 * store held when the answer arrived (its `since`), so it cannot end an engagement made after the
 * read, nor one the store learnt meanwhile.
 */
export function killswitchEventFromApi(
  status: KillswitchStatus,
  sentAtMs: number,
  storeEngagedAt?: string,
): KillswitchEvent {
  const time = timeAt(sentAtMs);
  const engagedAt = status.engaged === undefined ? undefined : parseEventTime(status.engaged);
  const changedAt = status.active ? (engagedAt ?? time) : timeAt(sentAtMs - CLOCK_ALLOWANCE_MS);
  const by = status.active
    ? (status.engagedByName ?? status.engagedBy ?? 'an unknown user')
    : 'the Steadybit Platform API';
  const endsEngagementAt = status.active || storeEngagedAt === undefined ? undefined : parseEventTime(storeEngagedAt);
  return {
    kind: 'killswitch',
    name: `platform-api.killswitch.${status.active ? 'engaged' : 'disengaged'}`,
    time,
    engaged: status.active,
    changedAt,
    by,
    ...(endsEngagementAt ? { endsEngagementAt } : {}),
    dedupeKey: hash(['platform-api', status.active, changedAt.key, endsEngagementAt?.key]),
  };
}

/** The scope keys of a run the search lists: its team, its environment's name and the ids the platform lists under that name. */
export function itemScopes(item: ExecutionItem, idsOf: (name: string) => readonly string[]): string[] {
  const keys = new Set<string>();
  if (item.teamKey) keys.add(scopeKey('team', item.teamKey));
  if (item.environment) {
    keys.add(scopeKey('environment', item.environment));
    for (const id of idsOf(item.environment)) keys.add(scopeKey('environment', id));
  }
  return [...keys];
}

const endStateOf = (state: string | undefined): EndState | undefined =>
  END_STATES.find((s) => s === state?.toUpperCase());

/**
 * A run of the search as the events Steadybit would have sent: its start (`created`, else
 * `requested` or `started`) and, when it has ended, its end. A run without any start time is left out.
 */
export function executionEventsFromApi(
  item: ExecutionItem,
  idsOf: (name: string) => readonly string[],
): ExecutionEvent[] {
  const startText = item.created ?? item.requested ?? item.started;
  const start = startText === undefined ? undefined : parseEventTime(startText);
  if (!start) return [];
  const scopes = itemScopes(item, idsOf);
  const base = { kind: 'execution' as const, id: item.id, scopes };
  const events: ExecutionEvent[] = [
    {
      ...base,
      name: 'platform-api.execution.started',
      time: start,
      phase: 'started',
      dedupeKey: hash(['platform-api', item.id, 'started']),
    },
  ];
  const end = item.ended === undefined ? undefined : parseEventTime(item.ended);
  if (end) {
    events.push({
      ...base,
      name: 'platform-api.execution.ended',
      time: end,
      phase: 'ended',
      endState: endStateOf(item.state),
      dedupeKey: hash(['platform-api', item.id, 'ended']),
    });
  }
  return events;
}
