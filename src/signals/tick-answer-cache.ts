import { type AnswerCache, MAX_CACHED_QUERIES } from './answer-cache';

/** An answer cache that lives for one guard tick: `nextTick()` drops what the last tick read. */
export interface TickAnswerCache extends AnswerCache {
  nextTick(): void;
}

/**
 * The guard's answers (docs/guard.md): each distinct query is sent once per tick, when its first
 * run asks, and its answer serves every run of that tick; the next tick asks again, so an alert
 * that fired since is seen, whatever SIGNAL_CACHE_TTL_MS says. Errors are shared for the tick too:
 * a source that is away costs the tick one SIGNAL_TIMEOUT_MS, not one per run.
 */
export function createTickAnswerCache(): TickAnswerCache {
  let answers = new Map<string, Promise<object>>();
  return {
    nextTick() {
      answers = new Map();
    },
    async get<A extends object>(key: string, load: () => Promise<A>) {
      const kept = answers.get(key);
      if (kept) return { answer: (await kept) as A, cached: true };
      const loading = load();
      // Past the bound (a tick asking that many distinct queries), each further run asks for itself.
      if (answers.size < MAX_CACHED_QUERIES) answers.set(key, loading);
      return { answer: await loading, cached: false };
    },
  };
}
