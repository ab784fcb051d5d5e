"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.failsOpen = void 0;
exports.needKey = needKey;
/** The need's `onUnavailable` mark for a rule's setting: only `allow` is written. */
const failsOpen = (onUnavailable) => onUnavailable === 'allow' ? { onUnavailable } : {};
exports.failsOpen = failsOpen;
/** The identity of a resolved need: one query to one source (the cache key, too). */
function needKey(need) {
    switch (need.kind) {
        case 'alerts':
            return `alertmanager\u0000${need.source}`;
        case 'prometheus':
            return `prometheus\u0000${need.source}\u0000${need.query}`;
        case 'json':
            return `json\u0000${need.source}\u0000${need.path}`;
    }
}
//# sourceMappingURL=signal-need.js.map