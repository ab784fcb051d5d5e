"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.NEVER_CHANGED = void 0;
exports.nextKillswitch = nextKillswitch;
exports.NEVER_CHANGED = { engaged: false, changedAt: '' };
/**
 * The kill switch after an event. Mirrored by APPLY_KILLSWITCH in redis-scripts.ts (the store
 * behaviour table runs both).
 * - `unmatched`: a disengagement that does not name the engagement it ends (`killswitch.engaged`
 *   missing, later than the disengagement itself, or, while the stop is engaged, not the engagement
 *   in force). It never unlocks the stop: a malformed event must not.
 * - `stale`: a change at or before the last one, or a disengagement of an earlier engagement (a
 *   replay must never unlock a newer engagement).
 */
function nextKillswitch(current, event) {
    const at = event.changedAt.key;
    if (!event.engaged) {
        const ends = event.endsEngagementAt?.key;
        if (ends === undefined || ends > at)
            return { kind: 'unmatched' };
        if (at <= current.changedAt)
            return { kind: 'stale' };
        if (current.engagedAt !== undefined && ends < current.engagedAt)
            return { kind: 'stale' };
        if (current.engaged && ends !== current.engagedAt)
            return { kind: 'unmatched' };
        return { kind: 'applied', next: { ...current, engaged: false, changedAt: at } };
    }
    if (at <= current.changedAt)
        return { kind: 'stale' };
    return {
        kind: 'applied',
        next: { engaged: true, changedAt: at, engagedAt: at, engagedAtText: event.changedAt.text, engagedBy: event.by },
    };
}
//# sourceMappingURL=killswitch-state.js.map