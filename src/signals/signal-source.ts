import type { SourceKind } from '../policy/signals/source-kind';

/** The kinds configured by environment variables too (`<KIND>_URL`); `json` sources only in SIGNAL_SOURCES_FILE. */
export const ENV_SOURCE_KINDS: readonly SourceKind[] = ['alertmanager', 'prometheus'];

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
  /** A `json` source with `format: ical`: an iCalendar file whose events going on at `now` are its answer. */
  calendar?: { timeZone?: string };
}

/** The sources of a deployment and how they are asked (docs/signals.md). */
export interface SignalsConfig {
  sources: readonly SignalSource[];
  /** SIGNAL_CACHE_TTL_MS (default 10000): how long an answer serves further preflights asking the same. */
  cacheTtlMs: number;
  /** SIGNAL_TIMEOUT_MS (default 5000): the longest one query may take; Steadybit waits 55 s for the whole answer. */
  timeoutMs: number;
}

export function findSource(
  config: Pick<SignalsConfig, 'sources'>,
  kind: SourceKind,
  name: string,
): SignalSource | undefined {
  return config.sources.find((s) => s.kind === kind && s.name === name);
}
