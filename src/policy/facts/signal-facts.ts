/**
 * What the live sources said for one decision (docs/signals.md "Signal facts"): gathered before the
 * pure decision, recorded in explanations, pinned by `eval --signals facts.json` and test suites.
 */
export interface SignalFacts {
  /** Per Alertmanager source: its active alerts (all of them; rules filter with their matchers). */
  alertmanager?: Record<string, AlertsAnswer>;
  /** Per Prometheus source, per query text (placeholders filled): the query's answer. */
  prometheus?: Record<string, Record<string, QueryAnswer>>;
  /** Per JSON source, per path (with its query, placeholders filled): the HTTP status and the JSON body. */
  json?: Record<string, Record<string, JsonAnswer>>;
  /**
   * Judged while a run is in progress only (absent at the door): the signals of `deadMan` rules
   * that have not answered, and since when, as the guard keeps them for the run (docs/guard.md,
   * "Dead man"). Present and empty: none is silent yet.
   */
  silentSince?: SilentSignal[];
}

/** A signal a `deadMan` rule watches that is silent (its source cannot answer, or its query returns no data), and since when. */
export interface SilentSignal {
  kind: 'alertmanager' | 'prometheus';
  /** The source's name, e.g. `default`. */
  source: string;
  /** The PromQL query, placeholders filled (absent for Alertmanager: its source answers or not). */
  query?: string;
  /** ISO time of the first tick that found it silent. */
  since: string;
}

/** What a JSON endpoint answered (2xx or 3xx), or why it could not (an HTTP error status, not JSON, unreachable). */
export type JsonAnswer = { readAt?: string; status: number; body: unknown } | { readAt?: string; error: string };

/** An alert as Alertmanager API v2 lists it (`GettableAlert`); only `labels` is required in a facts file. */
export interface AlertFact {
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  startsAt?: string;
  endsAt?: string;
  fingerprint?: string;
  generatorURL?: string;
  /** Absent in a facts file: active, neither silenced nor inhibited. */
  status?: { state?: 'active' | 'suppressed' | 'unprocessed'; silencedBy?: string[]; inhibitedBy?: string[] };
}

/** A silence as Alertmanager API v2 lists it (`GettableSilence`), with what the gate reads of it: its times. */
export interface SilenceFact {
  /** When it began to hide alerts (Alertmanager moves a start in the past to the moment it is made). */
  startsAt: string;
  /** When it was last made or changed (a silence extended mid-run keeps its id). */
  updatedAt?: string;
  endsAt?: string;
}

/**
 * `readAt`: when the source answered (ISO time); shown by explanations. `error`: why it could not.
 * `silences`: the silences by id, read when an alert is silenced (docs/guard.md, "Silences made
 * during a run"); `silencesError`: why they could not be read, so no silence hides an alert.
 */
export type AlertsAnswer =
  | { readAt?: string; alerts: AlertFact[]; silences?: Record<string, SilenceFact>; silencesError?: string }
  | { readAt?: string; error: string };

export interface PromSample {
  metric: Record<string, string>;
  value: [number, string];
}

export type QueryResult =
  | { resultType: 'vector'; result: PromSample[] }
  | { resultType: 'scalar'; result: [number, string] }
  | { resultType: 'matrix' | 'string'; result: unknown };

/** `badQuery`: Prometheus refused the query itself (bad_data), a policy bug no onUnavailable lets through. */
export type QueryAnswer = ({ readAt?: string } & QueryResult) | { readAt?: string; error: string; badQuery?: boolean };

/** An own entry of a facts map (never one inherited from Object.prototype). */
export function own<V>(map: Record<string, V> | undefined, key: string): V | undefined {
  return map !== undefined && Object.hasOwn(map, key) ? map[key] : undefined;
}
