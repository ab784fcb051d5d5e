"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createTickAnswerCache = createTickAnswerCache;
const answer_cache_1 = require("./answer-cache");
/**
 * The guard's answers (docs/guard.md): each distinct query is sent once per tick, when its first
 * run asks, and its answer serves every run of that tick; the next tick asks again, so an alert
 * that fired since is seen, whatever SIGNAL_CACHE_TTL_MS says. Errors are shared for the tick too:
 * a source that is away costs the tick one SIGNAL_TIMEOUT_MS, not one per run.
 */
function createTickAnswerCache() {
    let answers = new Map();
    return {
        nextTick() {
            answers = new Map();
        },
        async get(key, load) {
            const kept = answers.get(key);
            if (kept)
                return { answer: (await kept), cached: true };
            const loading = load();
            // Past the bound (a tick asking that many distinct queries), each further run asks for itself.
            if (answers.size < answer_cache_1.MAX_CACHED_QUERIES)
                answers.set(key, loading);
            return { answer: await loading, cached: false };
        },
    };
}
//# sourceMappingURL=tick-answer-cache.js.map