/**
 * What a signal rule declares it needs, at load time (the facts gathered before a decision), as
 * plain data: the active alerts of an Alertmanager source, or one query of a Prometheus source
 * (its text with placeholders, filled per run). `onUnavailable: 'allow'` marks a rule that lets runs
 * through when the source cannot answer (absent: it denies), so a source nobody configured can be
 * reported as the guardrail being off rather than on (unconfigured-sources.ts).
 */
export type SignalNeed = (
  | { kind: 'alerts'; source: string }
  | { kind: 'prometheus'; source: string; query: string }
  | { kind: 'json'; source: string; path: string }
) &
  FailsOpen;

/** Present only on the needs of rules that allow when their source cannot answer. */
export interface FailsOpen {
  onUnavailable?: 'allow';
}

/** The need's `onUnavailable` mark for a rule's setting: only `allow` is written. */
export const failsOpen = (onUnavailable: 'deny' | 'allow' | undefined): FailsOpen =>
  onUnavailable === 'allow' ? { onUnavailable } : {};

/** A need for one run: placeholders filled. Equal needs (same key) are asked once. */
export type ResolvedSignalNeed =
  | { kind: 'alerts'; source: string }
  | { kind: 'prometheus'; source: string; query: string }
  | { kind: 'json'; source: string; path: string };

/** The identity of a resolved need: one query to one source (the cache key, too). */
export function needKey(need: ResolvedSignalNeed): string {
  switch (need.kind) {
    case 'alerts':
      return `alertmanager\u0000${need.source}`;
    case 'prometheus':
      return `prometheus\u0000${need.source}\u0000${need.query}`;
    case 'json':
      return `json\u0000${need.source}\u0000${need.path}`;
  }
}
