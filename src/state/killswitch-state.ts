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

/** What a kill switch event does: the next record, or why it changes nothing. */
export type KillswitchChange = { kind: 'applied'; next: KillswitchRecord } | { kind: 'stale' } | { kind: 'unmatched' };

/**
 * The kill switch after an event. Mirrored by APPLY_KILLSWITCH in redis-scripts.ts (the store
 * behaviour table runs both).
 * - `unmatched`: a disengagement that does not name the engagement it ends (`killswitch.engaged`
 *   missing, later than the disengagement itself, or, while the stop is engaged, not the engagement
 *   in force). It never unlocks the stop: a malformed event must not.
 * - `stale`: a change at or before the last one, or a disengagement of an earlier engagement (a
 *   replay must never unlock a newer engagement).
 */
export function nextKillswitch(current: KillswitchRecord, event: KillswitchEvent): KillswitchChange {
  const at = event.changedAt.key;
  if (!event.engaged) {
    const ends = event.endsEngagementAt?.key;
    if (ends === undefined || ends > at) return { kind: 'unmatched' };
    if (at <= current.changedAt) return { kind: 'stale' };
    if (current.engagedAt !== undefined && ends < current.engagedAt) return { kind: 'stale' };
    if (current.engaged && ends !== current.engagedAt) return { kind: 'unmatched' };
    return { kind: 'applied', next: { ...current, engaged: false, changedAt: at } };
  }
  if (at <= current.changedAt) return { kind: 'stale' };
  return {
    kind: 'applied',
    next: { engaged: true, changedAt: at, engagedAt: at, engagedAtText: event.changedAt.text, engagedBy: event.by },
  };
}
