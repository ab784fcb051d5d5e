/** The kinds of live signal a policy may ask: Alertmanager's alerts, Prometheus queries, any HTTP endpoint answering JSON. */
export type SourceKind = 'alertmanager' | 'prometheus' | 'json';
export const SOURCE_KINDS: readonly SourceKind[] = ['alertmanager', 'prometheus', 'json'];

/** The name a policy means when it names no source (`ALERTMANAGER_URL`, `PROMETHEUS_URL`). */
export const DEFAULT_SOURCE = 'default';

/** `alertmanager "default" (http://127.0.0.1:9093)`: how messages and logs name a source. */
export function sourceText(kind: SourceKind, name: string, url?: string): string {
  return `${kind} "${name}"${url ? ` (${url})` : ''}`;
}
