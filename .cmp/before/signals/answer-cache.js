"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_CACHED_QUERIES = void 0;
exports.createAnswerCache = createAnswerCache;
/** Distinct queries kept at most: policies x environments rarely come near it. */
exports.MAX_CACHED_QUERIES = 1000;
function createAnswerCache(ttlMs, nowMs = () => performance.now()) {
    const entries = new Map();
    const inFlight = new Map();
    const keep = (key, answer) => {
        entries.delete(key);
        if (entries.size >= exports.MAX_CACHED_QUERIES)
            entries.delete(entries.keys().next().value);
        entries.set(key, { until: nowMs() + ttlMs, answer: Promise.resolve(answer) });
    };
    return {
        async get(key, load) {
            const entry = entries.get(key);
            if (entry && entry.until > nowMs())
                return { answer: (await entry.answer), cached: true };
            const pending = inFlight.get(key);
            if (pending)
                return { answer: (await pending), cached: true };
            const loading = load();
            inFlight.set(key, loading);
            try {
                const answer = await loading;
                if (ttlMs > 0 && !('error' in answer))
                    keep(key, answer);
                else
                    entries.delete(key);
                return { answer, cached: false };
            }
            finally {
                inFlight.delete(key);
            }
        },
    };
}
//# sourceMappingURL=answer-cache.js.map