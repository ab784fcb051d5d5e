import type { SilentSignal } from '../policy/facts/signal-facts';

/** The field a silent signal is kept under (its kind, source and query): one per signal of a run. */
export const silentField = (s: Omit<SilentSignal, 'since'>): string =>
  JSON.stringify([s.kind, s.source, s.query ?? null]);

/** A kept field and its time back as a silent signal. */
export function silentSignalOf(field: string, since: string): SilentSignal {
  const [kind, source, query] = JSON.parse(field) as [SilentSignal['kind'], string, string | null];
  return query === null ? { kind, source, since } : { kind, source, query, since };
}

/** The silences kept after a tick found `silent`: kept ones keep their time, new ones are added, the rest dropped. */
export function mergeSilences(kept: ReadonlyMap<string, string>, silent: readonly SilentSignal[]): Map<string, string> {
  const next = new Map<string, string>();
  for (const s of silent) {
    const field = silentField(s);
    next.set(field, kept.get(field) ?? s.since);
  }
  return next;
}
