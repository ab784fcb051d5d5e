import type { RunValues } from './placeholder-text';
import { resolvePromQuery, type PromQuery } from './prom-query';

/**
 * What a signal rule declares it needs, at load time (the facts gathered before a decision):
 * the active alerts of an Alertmanager source, or one query of a Prometheus source.
 */
export type SignalNeed =
  | { kind: 'alerts'; source: string }
  | { kind: 'prometheus'; source: string; query: PromQuery };

/** A need for one run: placeholders filled. Equal needs (same key) are asked once. */
export type ResolvedSignalNeed =
  | { kind: 'alerts'; source: string }
  | { kind: 'prometheus'; source: string; query: string };

/** The identity of a resolved need: one query to one source (the cache key, too). */
export function needKey(need: ResolvedSignalNeed): string {
  switch (need.kind) {
    case 'alerts': return `alertmanager\u0000${need.source}`;
    case 'prometheus': return `prometheus\u0000${need.source}\u0000${need.query}`;
  }
}

/** The needs for one run: each rule's needs filled for each of its environments; a need missing a value is left out (its rule says why). */
export function resolveSignalNeeds(needs: Iterable<SignalNeed>, runs: readonly RunValues[]): ResolvedSignalNeed[] {
  const out: ResolvedSignalNeed[] = [];
  for (const need of needs) {
    if (need.kind === 'alerts') {
      out.push({ kind: 'alerts', source: need.source });
      continue;
    }
    for (const run of runs) {
      const query = resolvePromQuery(need.query, run);
      if ('text' in query) out.push({ kind: 'prometheus', source: need.source, query: query.text });
    }
  }
  return out;
}
