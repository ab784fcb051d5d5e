import type { KillswitchEvent } from './state-event';

/** The kill switch as last changed; `changedAt`/`engagedAt` are exact time keys (event-time.ts). */
export interface KillswitchRecord {
  engaged: boolean;
  changedAt: string;
  engagedAt?: string;
  engagedAtText?: string;
  engagedBy?: string;
}

export const NEVER_CHANGED: KillswitchRecord = { engaged: false, changedAt: '' };

/**
 * The kill switch after an event, or undefined when the event is older than what it would change:
 * a change at or before the last one, or a disengagement of an earlier engagement (a replay must
 * never unlock a newer engagement). Mirrored by the Redis script in redis-scripts.ts.
 */
export function nextKillswitch(current: KillswitchRecord, event: KillswitchEvent): KillswitchRecord | undefined {
  const at = event.changedAt.key;
  if (at <= current.changedAt) return undefined;
  if (!event.engaged) {
    const ends = event.endsEngagementAt?.key;
    if (ends !== undefined && current.engagedAt !== undefined && ends < current.engagedAt) return undefined;
    return { ...current, engaged: false, changedAt: at };
  }
  return { engaged: true, changedAt: at, engagedAt: at, engagedAtText: event.changedAt.text, engagedBy: event.by };
}
