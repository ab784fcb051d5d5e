import type { Checked } from './checked';
import type { EvaluationContext } from './evaluation-context';
import type { Need } from '../facts/need';
import type { CompiledScope, ScopeSpec } from './compiled-scope';
import type { Template } from './template';
import type { ActionStepRef, Mode, Modification, PolicyOutcome, SourceRef } from './decision';
import type { AliasesById, EnvironmentAliases, EnvironmentNames } from './environment-directory';

// The compiled policy set: built by loading (load-bundle.ts), read-only from then on. Deciding a run
// never writes to any of it; what a decision computes lives in its EvaluationContext.

export interface RuleInput {
  ctx: EvaluationContext;
  /** The action steps this policy is scoped to. */
  steps: ActionStepRef[];
}

/**
 * A rule kind's compiled check (RuleKind.compile): a function of the spec alone. Policies that
 * repeat a spec share one RuleCheck, and within one decision its answer (EvaluationContext).
 */
export interface RuleCheck {
  /** What the rule finds for the run and what it read to judge; nothing else is written (`findings` wraps a plain judge). */
  check(input: RuleInput): Checked;
  /** What the rule needs from outside the payload (facts), gathered before the decision. */
  needs?: readonly Need[];
  /** Parts of the rule that can no longer apply at `now` (a freeze that ended): load-time warnings. */
  staleParts?(now: Date): Array<{ path: string[]; message: string }>;
  /** A `deadMan` rule: while a run is in progress the guard keeps since when its signals are silent (docs/guard.md). */
  deadMan?: boolean;
}

/** A rule of one policy: its shared check (the same `check` function for the same spec) and where it is. */
export interface CompiledRule extends RuleCheck {
  kind: string;
  /** Path of the rule inside its file, e.g. `rules[0].environments`. */
  path: string;
  /**
   * Where a decision keeps its check's answer, when other rules of the bundle share the check
   * (numbered by assembleBundle, 0 to `sharedChecks - 1`); undefined: asked directly (no other
   * rule shares it, or the rule was not numbered by assembleBundle).
   */
  answerSlot?: number;
}

export interface CompiledModification {
  type: Modification['type'];
  propertyKey: string;
  /** Renders the value for one decision (string values may hold placeholders). */
  render(values: Record<string, string | undefined>): Modification['value'];
  /** The value when it has no placeholders: comparable at load time. */
  constant?: Modification['value'];
}

export interface CompiledPolicy {
  name: string;
  description?: string;
  mode: Mode;
  priority: number;
  source: SourceRef;
  matchSpec?: ScopeSpec;
  match: CompiledScope;
  exclude: CompiledScope;
  rules: CompiledRule[];
  message?: Template;
  modifications: CompiledModification[];
  /**
   * Its outcome when it applies and finds nothing, before any modification is rendered: a constant
   * of the policy (passOutcome, frozen), like its name.
   */
  passed: PolicyOutcome;
  /** `whileRunning:` the policy keeps holding while an allowed run is in progress (docs/guard.md); absent: judged at the door only. */
  whileRunning?: WhileRunning;
}

/** What a policy that guards running runs does when a re-judgement cannot decide (docs/guard.md). */
export interface WhileRunning {
  /** `report` (default): the run goes on, the gap is logged and counted; `stop`: the run is cancelled. */
  onCannotJudge: 'report' | 'stop';
}

export interface CompiledException {
  name: string;
  policy: string;
  owner: string;
  reason: string;
  expires: Date;
  /** Who asked for it and who approved it, as written (docs/approvals.md). */
  requestedBy?: string;
  approvedBy?: string;
  /** Runs it may waive in all (the state store counts them); unset: any number until it expires. */
  maxUses?: number;
  /** The set requires approvedBy not to be the run's starter (ExceptionSettings.approverNotStarter), set when the set loads. */
  approverNotStarter: boolean;
  /**
   * The team that owns the targets of the policy it waives (its `match.ownedBy`), set when the set
   * loads: the exception waives only when approvedBy is a member of this team.
   */
  owningTeam?: string;
  match: CompiledScope;
  source: SourceRef;
}

/** A policy set's rules for its exceptions (`kind: ExceptionSettings`, at most one per set). */
export interface ExceptionSettings {
  /** The longest an exception may run: its `expires` at most this far ahead when the set loads. */
  maxDurationMs: number;
  /** As written, e.g. `7d`, for messages. */
  maxDuration: string;
  /** An exception does not waive a run its approver started: a second person approves (docs/approvals.md). */
  approverNotStarter: boolean;
  source: SourceRef;
}

/** The match field a policy is filed under. Each policy is filed under at most one. */
export type IndexDimension = 'experimentKeys' | 'teams' | 'environments' | 'createdVia' | 'actionIds';

export interface PolicyIndexStats {
  /** Policies filed per dimension. */
  filed: Record<IndexDimension, number>;
  /** Policies whose match scope cannot be indexed (no teams, environments, literal key prefix, createdVia or action ids): always visited. */
  alwaysVisited: number;
}

/**
 * Which policies may apply to a run, by their `match:` scope. Built once when a bundle loads.
 * `candidates` returns a superset of the policies whose match scope does not rule the run out:
 * a policy left out would have been skipped by its match scope anyway.
 */
export interface PolicyIndex {
  /** Positions in the bundle's policy list, ascending (bundle order is kept). */
  candidates(ctx: EvaluationContext): number[];
  stats: PolicyIndexStats;
}

/** A bundle's exceptions by the policy they waive, in bundle order (most policies have none). */
export type ExceptionsByPolicy = ReadonlyMap<string, readonly CompiledException[]>;

/** An immutable, fully validated policy set. Requests only ever see one of these. */
export interface PolicyBundle {
  /** Content hash of every file that went into the bundle (first 12 hex of SHA-256). */
  revision: string;
  loadedAt: Date;
  files: readonly string[];
  policies: readonly CompiledPolicy[];
  exceptions: readonly CompiledException[];
  /** The set's ExceptionSettings, when it declares them (the mint command reads the maximum from here). */
  exceptionSettings?: ExceptionSettings;
  aliases: EnvironmentAliases;
  /** The aliases by environment id (load time): how a run's environments get their alias names. */
  aliasesById: AliasesById;
  /** The names signal placeholders fill in for an environment id or name (load time; environment-names.ts). */
  environmentNames: EnvironmentNames;
  /** The exceptions by the policy they waive (load time). */
  exceptionsByPolicy: ExceptionsByPolicy;
  /** The policies by match scope, so a decision visits only those that may apply (built at load). */
  index: PolicyIndex;
  /** What the policies' rules need from outside the payload, each once: what factGatherer asks for. */
  needs: readonly Need[];
  /** How many checks two or more rules share: the length of a decision's answers (CompiledRule.answerSlot). */
  sharedChecks: number;
}
