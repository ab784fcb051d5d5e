/** The kinds of live signal a policy may ask: Alertmanager's alerts, Prometheus queries, any HTTP endpoint answering JSON. */
export type SourceKind = 'alertmanager' | 'prometheus' | 'json';
export const SOURCE_KINDS: readonly SourceKind[] = ['alertmanager', 'prometheus', 'json'];
/** The kinds configured by environment variables too (`<KIND>_URL`); `json` sources only in SIGNAL_SOURCES_FILE. */
export const ENV_SOURCE_KINDS: readonly SourceKind[] = ['alertmanager', 'prometheus'];

/** The name a policy means when it names no source (`ALERTMANAGER_URL`, `PROMETHEUS_URL`). */
export const DEFAULT_SOURCE = 'default';

export type SourceAuth =
  | { type: 'bearer'; token: string }
  | { type: 'basic'; username: string; password: string }
  /** Any other scheme, e.g. PagerDuty's `Authorization: Token token=...`, Opsgenie's `GenieKey ...`. */
  | { type: 'header'; name: string; value: string };

/** One Alertmanager or Prometheus a deployment can ask (docs/signals.md). */
export interface SignalSource {
  kind: SourceKind;
  name: string;
  /** Base URL without a trailing slash, e.g. `https://alertmanager.monitoring:9093` or `http://host/prometheus`. */
  url: string;
  auth?: SourceAuth;
  /** PEM certificates to trust for https (a private CA), read at start-up. */
  ca?: string;
}

/** The sources of a deployment and how they are asked (docs/signals.md). */
export interface SignalsConfig {
  sources: readonly SignalSource[];
  /** SIGNAL_CACHE_TTL_MS (default 10000): how long an answer serves further preflights asking the same. */
  cacheTtlMs: number;
  /** SIGNAL_TIMEOUT_MS (default 5000): the longest one query may take; Steadybit waits 55 s for the whole answer. */
  timeoutMs: number;
}

/** `alertmanager "default" (http://127.0.0.1:9093)`: how messages and logs name a source. */
export function sourceText(kind: SourceKind, name: string, url?: string): string {
  return `${kind} "${name}"${url ? ` (${url})` : ''}`;
}

export function findSource(config: Pick<SignalsConfig, 'sources'>, kind: SourceKind, name: string): SignalSource | undefined {
  return config.sources.find((s) => s.kind === kind && s.name === name);
}
