"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.LackingNeedError = void 0;
exports.checkNeeds = checkNeeds;
exports.checkNeedsAtStart = checkNeedsAtStart;
/**
 * Every need of the capabilities present that the policy set makes and none of them provides:
 * the one place that decides what a policy set may ask of this service (start-up: logged, an
 * `error` refuses to start; /readyz: `lacking`, for the set in use).
 */
function checkNeeds(capabilities, bundle) {
    if (!bundle)
        return [];
    const provided = new Set(capabilities.flatMap((c) => c.provides));
    const out = [];
    for (const capability of capabilities)
        for (const need of capability.needs) {
            if (provided.has(need.feature))
                continue;
            const asked = need.asks(bundle);
            if (asked)
                out.push({
                    capability: capability.name,
                    feature: need.feature,
                    lacking: need.lacking,
                    message: need.message,
                    asked,
                    ...(need.loggedByCapability ? { loggedByCapability: true } : {}),
                });
        }
    return out;
}
/** A policy set that asks what the service lacks and cannot do without: the service does not start. */
class LackingNeedError extends Error {
    lacking;
    constructor(lacking) {
        super(`the policy set needs what this service lacks: ${lacking.map((l) => l.message).join('; ')}`);
        this.lacking = lacking;
        this.name = 'LackingNeedError';
    }
}
exports.LackingNeedError = LackingNeedError;
/** At start-up: every need lacking is logged as a warning, with what asked for it; an `error` one refuses to start. */
function checkNeedsAtStart(capabilities, bundle, logger) {
    const lacking = checkNeeds(capabilities, bundle);
    const refused = lacking.filter((l) => l.lacking === 'error');
    if (refused.length > 0)
        throw new LackingNeedError(refused);
    for (const l of lacking)
        if (!l.loggedByCapability)
            logger.warn(l.message, { ...l.asked });
}
//# sourceMappingURL=check-needs.js.map