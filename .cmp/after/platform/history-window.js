"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.historyWindowMs = historyWindowMs;
/**
 * How far back the bundle's cool-down and quota rules look: the ended-runs search rebuilds that
 * much history (0 when no rule looks back). Read from the needs the rules declared (bundle.needs).
 */
function historyWindowMs(bundle) {
    let longest = 0;
    for (const need of bundle?.needs ?? []) {
        if (need.kind === 'ended' || need.kind === 'started')
            longest = Math.max(longest, need.windowMs);
    }
    return longest;
}
//# sourceMappingURL=history-window.js.map