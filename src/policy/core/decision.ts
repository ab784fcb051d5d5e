import type { SilentSignal } from '../facts/signal-facts';
import type { Execution, PreflightPayload, Step } from '../../payload/types';

export type Mode = 'enforce' | 'warn' | 'audit';
export const MODES: readonly Mode[] = ['enforce', 'warn', 'audit'];

/** Where a policy or a problem lives: `policies/prod.yaml:12:5`. */
export interface SourceRef {
  file: string;
  line: number;
  col: number;
}

/** An action step of the run (also those nested in service validations), with a readable label. */
export interface ActionStepRef {
  /** Position in the payload, e.g. `steps[1]` or `steps[2].validations[0]`. */
  path: string;
  /** What a person recognises: custom label, else action id, else path. */
  label: string;
  step: Step;
}

/** An environment as sent, with every key a policy may name it by (value and alias names, lower-cased). */
export interface RunEnvironment {
  value: string;
  keys: ReadonlySet<string>;
  /** The names a signal placeholder fills in (environmentNamesOf; none for an id without a known name). */
  names: readonly string[];
  /** Why its Steadybit name cannot be known (the Platform API is configured but cannot say): what a policy that depends on it cannot decide. */
  unknownName?: string;
}

/** The run's own scopes of one kind with their state-store keys and labels, or why there are none (a violation). */
export type RunScopes = readonly { key: string; label: string }[] | Violation;

/**
 * How a finding counts. `violation`: the rule found the run wrong (it denies). `undecidable`: the rule
 * could not judge (unknown shape, missing data); it denies too, saying so. `advisory`: said, but not
 * held against the run: a live-signal source that could not answer where the policy says
 * `onUnavailable: allow` (docs/signals.md); a policy whose findings are all advisory warns.
 */
export type FindingStatus = 'violation' | 'undecidable' | 'advisory';

/** What a live-signal rule read: the source, the query, its result and when (explanations). */
export interface SignalRead {
  source: string;
  /** The Alertmanager matchers or the PromQL query, placeholders filled. */
  query: string;
  /** What came back, briefly: `2 alerts`, `0.031`, `no samples`, or the error. */
  result: string;
  readAt?: string;
  /** A `deadMan` rule's signal that is silent while the run is in progress: which, and since when (docs/guard.md, "Dead man"). */
  silent?: SilentSignal;
}

/** One thing a rule found wrong, could not judge, or only says: what every check returns (RuleCheck). */
export interface Violation {
  reason: string;
  /** Absent: `violation`. */
  status?: FindingStatus;
  step?: ActionStepRef;
  target?: string;
  value?: string;
  /** What a live-signal rule read for it. */
  signal?: SignalRead;
}

/** How the violation counts. */
export const statusOf = (v: Violation): FindingStatus => v.status ?? 'violation';

export type ModificationType = 'set_property_value' | 'add_value_to_list_property';

export interface Modification {
  type: ModificationType;
  propertyKey: string;
  /** Steadybit: "could be a string, a number or a list" (SetPropertyValue.value). */
  value: string | number | Array<string | number>;
}

export type PolicyResultKind = 'pass' | 'deny' | 'warn' | 'audit' | 'skipped';

export interface PolicyResult {
  policy: string;
  mode: Mode;
  priority: number;
  result: PolicyResultKind;
  /** Reasons the policy would deny (for deny/warn/audit), or why it was skipped. */
  reasons: string[];
  /** The policy's message, rendered (deny/warn/audit only). */
  message?: string;
  exception?: string;
  /** What each rule found (deny/warn/audit, and a waived policy): the explanation, rule by rule. */
  findings?: Finding[];
  /** What the policy's signal rules read (pass or deny): source, query, result, when. */
  signals?: SignalRead[];
  source: SourceRef;
}

/**
 * One violation, located, as decisions, explanations, audit lines and archives write it: the rule
 * that found it (its path in the policy, e.g. `rules[0].timeWindow`) and the step's label. Its status
 * is written as the flag these have always carried: `undecidable: true`, `advisory: true`, or none
 * for a violation; never both (findingOf in engine/evaluate-policy.ts writes it).
 */
export type Finding = Omit<Violation, 'status' | 'step'> & { rule: string; step?: string } & StatusFlag;

/** A finding's status as written: at most one flag. */
export type StatusFlag =
  | { undecidable?: undefined; advisory?: undefined }
  | { undecidable: true; advisory?: undefined }
  | { advisory: true; undecidable?: undefined };

/** What one policy did for a run: its result and the modifications it adds if the run is allowed. */
export interface PolicyOutcome {
  result: PolicyResult;
  modifications: ReadonlyArray<Modification & { policy: string }>;
}

export interface ModificationConflict {
  propertyKey: string;
  kept: { policy: string; value: Modification['value'] };
  dropped: { policy: string; value: Modification['value'] };
}

export interface Decision {
  id: string;
  allowed: boolean;
  message: string;
  modifications: Modification[];
  conflicts: ModificationConflict[];
  revision: string;
  evaluatedAt: string;
  /** Results of the policies visited: every policy whose match scope may include the run. */
  results: PolicyResult[];
  /** Policies the scope index ruled out without visiting them (their match scope excludes the run). */
  outOfScope?: number;
}

export type { Execution, PreflightPayload, Step };
