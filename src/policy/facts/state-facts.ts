/**
 * The state part of the facts (Facts.state): what the service learned from Steadybit's custom
 * webhooks (POST /events), as a decision reads it. Plain JSON data, so a decision can be replayed
 * from it and `eval --state` / suite cases can give it (docs/state.md, `schema --state`).
 */

/** How a run ended. */
export type EndState = 'COMPLETED' | 'FAILED' | 'ERRORED' | 'CANCELED';
export const END_STATES: readonly EndState[] = ['COMPLETED', 'FAILED', 'ERRORED', 'CANCELED'];

/** What state is counted per: every environment a run touches, or its team. */
export type ScopeKind = 'team' | 'environment';
export const SCOPE_KINDS: readonly ScopeKind[] = ['environment', 'team'];

/**
 * The target attributes runs are recorded under as attacked services (`service:k8s.deployment=checkout`),
 * from the targets `experiment.execution.created` lists: a fixed list, so a run is recorded before
 * any policy asks, and a policy naming another key is a load error rather than a cool-down that never
 * starts (docs/state.md).
 */
export const SERVICE_KEYS: readonly string[] = [
  'k8s.deployment',
  'k8s.statefulset',
  'k8s.daemonset',
  'k8s.service.name',
];

/** The key state is counted under: `team:adm`, `environment:production` (lower-cased). */
export function scopeKey(kind: ScopeKind, value: string): string {
  return `${kind}:${value.toLowerCase()}`;
}

/**
 * The scope key of an attacked service: `service:k8s.deployment=checkout` (lower-cased). Cool-downs
 * can be per attacked service too (`per: service`); runs are recorded under these keys as well.
 */
export const serviceScopeKey = (attribute: string, value: string): string =>
  `service:${attribute}=${value}`.toLowerCase();

/** Longest cool-down or quota window a policy may use: history is kept this long. */
export const HISTORY_MS = 31 * 86_400_000;

/** A run as the state knows it: started (running, quotas) or ended (cool-downs) at `atMs`. */
export interface RunRef {
  /** The execution id as text (a numeric id as a payload carries it is its decimal text). */
  id: string;
  atMs: number;
  state?: EndState;
}

export interface EmergencyStopState {
  engaged: boolean;
  /** Who engaged it and when (the time as Steadybit sent it). */
  by?: string;
  since?: string;
  /** Set when this replica cannot vouch for "disengaged" (platform-connection.ts): the rule cannot decide. */
  unconfirmed?: string;
}

/** Runs by scope key (`team:adm`, `environment:prod`). */
export type RunsByScope = Record<string, RunRef[]>;

/** A run in progress as the overlap rules name it (noOverlap): who runs it, since when. */
export interface InProgressRun {
  experimentKey?: string;
  /** The team key of the run (execution.teamKey). */
  team?: string;
  /** When the gate allowed it, ISO 8601. */
  since?: string;
}

/**
 * The runs in progress whose targets this run shares (noOverlap rules): only the targets and the
 * attribute values of the run being decided are looked up, so the part stays small however many
 * runs are in progress. `targets` by target (`<type>/<name>`), `attributes` by attribute key and
 * value; each lists execution ids, described once in `runs`.
 */
export interface InProgressFacts {
  runs: Record<string, InProgressRun>;
  targets: Record<string, string[]>;
  attributes: Record<string, Record<string, string[]>>;
}

/** Each part is there when it was gathered; a rule whose part is missing cannot decide. */
export interface StateFacts {
  emergencyStop?: EmergencyStopState;
  running?: RunsByScope;
  ended?: RunsByScope;
  started?: RunsByScope;
  /** Runs each exception with maxUses has waived so far, by exception name (a name not listed: none). */
  exceptionUses?: Record<string, number>;
  /**
   * Why the service does not know the use counts (its store cannot keep them: uncounted-exception-uses.ts);
   * set instead of exceptionUses, and an exception with maxUses then does not waive, saying this.
   */
  exceptionUsesUnknown?: string;
  /** The runs in progress sharing this run's targets (the guard's store of allowed runs). */
  inProgress?: InProgressFacts;
}

/** What a rule with memory needs from the state store, declared when it compiles. */
export type StateNeed =
  | { kind: 'emergency-stop' }
  | { kind: 'running'; per: ScopeKind }
  | { kind: 'ended'; per: ScopeKind; windowMs: number }
  /** Ended runs per attacked service: the run's values of `attribute` (one of SERVICE_KEYS). */
  | { kind: 'ended'; per: 'service'; attribute: string; windowMs: number }
  | { kind: 'started'; per: ScopeKind; windowMs: number }
  | { kind: 'exception-uses'; exception: string }
  /** The runs in progress on the same targets, or (with `attribute`) on targets sharing that attribute's values. */
  | { kind: 'in-progress'; attribute?: string };
