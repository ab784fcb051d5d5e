import type { Execution, PreflightPayload, Step } from '../payload/types';
import type { TemplateValues } from './template';
import type { Built } from './json-logic/condition-data';
import type { Data } from './json-logic/null-prototype';
import type { Path } from './predicate/predicate';
import type { LocalTime } from './time/wall-clock';

export type Mode = 'enforce' | 'warn' | 'audit';
export const MODES: readonly Mode[] = ['enforce', 'warn', 'audit'];

/** Where a policy or a problem lives: `policies/prod.yaml:12:5`. */
export interface SourceRef { file: string; line: number; col: number }

/** An action step of the run (also those nested in service validations), with a readable label. */
export interface ActionStepRef {
  /** Position in the payload, e.g. `steps[1]` or `steps[2].validations[0]`. */
  path: string;
  /** What a person recognises: custom label, else action id, else path. */
  label: string;
  step: Step;
}

/** Run-time state from custom webhooks (issue: guardrails with memory); absent when not loaded. */
export interface StateSnapshot {
  [fact: string]: unknown;
}

/** An environment as sent, with every key a policy may name it by (value and alias names, lower-cased). */
export interface RunEnvironment { value: string; keys: ReadonlySet<string> }

/** Everything a rule may look at. Built once per request, shared by all policies. */
export interface Facts {
  payload: PreflightPayload;
  execution: Execution;
  now: Date;
  /** The environments the run touches: `execution.environment` and the override, if any. */
  environments: RunEnvironment[];
  actionSteps: ActionStepRef[];
  /** The run's team key and createdVia upper-cased, as scopes compare them: once per request, not per policy. */
  upperCased: { teamKey?: string; createdVia?: string };
  /** The engine's own per-request texts, built by the first policy that needs them; not for rules. */
  memo: RequestMemo;
  /** A number no other request's facts have: what shared parts key their per-request answer by (RequestCell). */
  request: number;
  decisionId: string;
  revision: string;
  state?: StateSnapshot;
}

/**
 * Texts several policies of one decision may need, kept here until the request ends (a WeakMap keyed
 * by the request would cost more in garbage collection than building them).
 */
export interface RequestMemo {
  /** The request's message and modification placeholders ({{team}}, {{now}}, ...). */
  templateValues?: TemplateValues;
  /** The run's environments as skip reasons name them, e.g. `4f1c... (production)`. */
  environmentText?: string;
  /** `now` as ISO text: the decision's evaluatedAt and the {{now}} placeholder. */
  nowText?: string;
  /** The run's action steps as skip reasons list them. */
  stepLabels?: string;
  /** The run's scopes per team and per environment, as the state rules read them (runScopes). */
  teamScopes?: RunScopes;
  environmentScopes?: RunScopes;
  // Memos of per-request objects live here, not in WeakMaps keyed by the request's objects: V8's
  // young-generation GC keeps a WeakMap's values alive while its table is old, so every entry was
  // copied and promoted before its key died (docs/performance.md 22.).
  /** The request's `now` on the wall clock of each time zone asked for, and its description. */
  localTimes?: Map<string, LocalTime>;
  localTexts?: Map<string, string>;
  /** The ways through each radius.predicate object of the payload (blastRadius). */
  predicatePaths?: Map<object, Path[]>;
  /** The payload as conditions read it, and the condition data built per steps array. */
  payloadCopy?: Data;
  conditionData?: Map<readonly ActionStepRef[], Built>;
}

/** The run's own scopes of one kind with their state-store keys and labels, or why there are none (a violation). */
export type RunScopes = readonly { key: string; label: string }[] | Violation;

/**
 * The answer a shared compiled part (a scope, a rule check) gave for one request. Many policies of
 * a decision share such a part; the first to ask computes the answer, the others read it. Keyed by
 * Facts.request, so no later request reads it and it keeps nothing of the request alive but the
 * answer itself. A decision is synchronous, so one request at a time uses the cells.
 */
export interface RequestCell<T> {
  request: number;
  value: T;
}

/** One thing a rule found wrong, or could not judge. */
export interface Violation {
  reason: string;
  step?: ActionStepRef;
  target?: string;
  value?: string;
  /** The rule could not decide (unknown shape, missing data); it counts as a violation. */
  undecidable?: boolean;
}

export interface RuleInput {
  facts: Facts;
  /** The action steps this policy is scoped to. */
  steps: ActionStepRef[];
}

/**
 * A shared rule check's answer for one request, or its failure: a check that throws is asked once
 * per request, and every policy that shares it fails closed on the same error (never on a retry).
 * A success clears the failure, so no error (and what it references) outlives the next request.
 */
export interface RuleAnswer extends RequestCell<Violation[]> {
  failed: boolean;
  failure: unknown;
}

export interface CompiledRule {
  kind: string;
  /**
   * What the check found for the run's whole list of action steps in the request being decided:
   * one cell per distinct rule spec, shared by the policies that repeat it.
   */
  answer: RuleAnswer;
  /** Path of the rule inside its file, e.g. `rules[0].environments`. */
  path: string;
  check(input: RuleInput): Violation[];
  /** Names of state facts the rule reads; the route loads them before evaluating. */
  needsState?: readonly string[];
  /** Parts of the rule that can no longer apply at `now` (a freeze that ended): load-time warnings. */
  staleParts?(now: Date): Array<{ path: string[]; message: string }>;
}

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
  source: SourceRef;
}

/** One violation, located: which rule found it and about which step, target or value. */
export interface Finding {
  /** The rule's path in its policy, e.g. `rules[0].timeWindow`. */
  rule: string;
  reason: string;
  step?: string;
  target?: string;
  value?: string;
  undecidable?: boolean;
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

export { type Execution, type PreflightPayload, type Step };
