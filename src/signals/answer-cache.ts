/**
 * Answers of live sources kept for a short time per distinct query (SIGNAL_CACHE_TTL_MS), so a
 * burst of preflights costs one query: callers that ask while a query is under way share it.
 * Errors are shared by the callers waiting on them but never kept: the next preflight asks again.
 * Shared by every decision (it is the I/O layer, not the policy bundle) and bounded in size.
 */
export interface AnswerCache {
  get<A extends object>(key: string, load: () => Promise<A>): Promise<{ answer: A; cached: boolean }>;
}

/** Distinct queries kept at most: policies x environments rarely come near it. */
export const MAX_CACHED_QUERIES = 1000;

interface Entry {
  until: number;
  answer: Promise<object>;
}

export function createAnswerCache(ttlMs: number, nowMs: () => number = () => performance.now()): AnswerCache {
  const entries = new Map<string, Entry>();
  const inFlight = new Map<string, Promise<object>>();
  const keep = (key: string, answer: object) => {
    entries.delete(key);
    if (entries.size >= MAX_CACHED_QUERIES) entries.delete(entries.keys().next().value as string);
    entries.set(key, { until: nowMs() + ttlMs, answer: Promise.resolve(answer) });
  };
  return {
    async get<A extends object>(key: string, load: () => Promise<A>) {
      const entry = entries.get(key);
      if (entry && entry.until > nowMs()) return { answer: (await entry.answer) as A, cached: true };
      const pending = inFlight.get(key);
      if (pending) return { answer: (await pending) as A, cached: true };
      const loading = load();
      inFlight.set(key, loading);
      try {
        const answer = await loading;
        if (ttlMs > 0 && !('error' in answer)) keep(key, answer);
        else entries.delete(key);
        return { answer, cached: false };
      } finally {
        inFlight.delete(key);
      }
    },
  };
}
