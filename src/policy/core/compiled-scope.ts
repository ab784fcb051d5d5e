import type { Need } from '../facts/need';
import type { ActionStepRef } from './decision';
import type { EvaluationContext } from './evaluation-context';

/** `match:` / `exclude:` in YAML. Lists are OR-ed; fields are AND-ed. */
export interface ScopeSpec {
  teams?: string[];
  environments?: string[];
  experimentKeys?: string[];
  actionIds?: string[];
  actionKinds?: string[];
  createdVia?: string[];
  /** Versions of the experiment (`execution.experimentVersion`), compared as text. */
  experimentVersions?: Array<number | string>;
  /** Who started the run: `execution.createdBy.username` or `.email`, case-insensitive, globs allowed. */
  createdBy?: string[];
  /** Steadybit teams whose members started the run (Platform API, GET /api/teams/{key}/members). */
  createdByTeams?: string[];
  /** Runs that reach targets this team owns, whoever started them (`match` of a policy only; engine/owned-targets.ts). */
  ownedBy?: OwnedBySpec;
}

/**
 * `match.ownedBy`: the Steadybit team that owns the targets whose `attribute` says so. Without
 * `values` a target is owned when the attribute's value is the team key (ignoring case, as team
 * keys compare); with `values`, when it is one of them (exact): the mapping of services to owners.
 */
export interface OwnedBySpec {
  team: string;
  attribute: string;
  values?: string[];
  /** `deny` (default): a listed target without the attribute cannot be placed; `notOwned`: it is not the team's. */
  whenMissing?: 'deny' | 'notOwned';
}

/** A `match:` or `exclude:` scope, compiled at load (engine/scope.ts compileScope). */
export interface CompiledScope {
  /** Whether the scope has run-level fields (teams, environments, experiment keys, createdVia): without, runMiss is always undefined. */
  narrowsRun: boolean;
  /** Why the run is outside this scope (naming the value and the list), or undefined when inside. */
  runMiss(ctx: EvaluationContext): string | undefined;
  /** Whether the scope says anything about steps. */
  hasStepFilter: boolean;
  stepMatches(step: ActionStepRef): boolean;
  /** The step filter as written, e.g. `match.actionIds (*shutdown*)`, for skip reasons. */
  stepFilterText: string;
  /** Whether every run-level field is known to match (a waiver's reach: unknown never widens it). */
  runCovered(ctx: EvaluationContext): boolean;
  /** Whether the step's action id and kind are known to match the step filter (true without one). */
  stepCovered(step: ActionStepRef): boolean;
  /**
   * Why the run cannot be placed in or out of this scope, and the field: its environments depend on
   * an environment name that cannot be known (docs/platform-api.md), or its createdByTeams on team
   * members that cannot be read (docs/policies.md). Asked when runMiss said nothing.
   */
  undecided(ctx: EvaluationContext): { field: string; reason: string } | undefined;
  /**
   * Why the run is not known to be in this scope when only createdByTeams members that cannot be
   * read stand in the way (every other field is known to match): an exception's match passed over.
   */
  membersUnread(ctx: EvaluationContext): string | undefined;
  /** Whether the scope lists createdByTeams: its answer depends on members read from the Platform API. */
  readsMembers: boolean;
  /** The team whose targets the scope is about (`match.ownedBy`): its exceptions need an approver from it. */
  owningTeam?: string;
  /**
   * What the run reaches of the owning team's targets, for the denial: e.g. `this run of team SHOP
   * reaches targets owned by team checkout (k8s.label.team): checkout-7d9f (k8s.label.team=checkout)`;
   * undefined without `ownedBy` or when it reaches none.
   */
  ownedReached?(ctx: EvaluationContext): string | undefined;
  /** What deciding the scope needs from outside the payload: the environment names when it lists environments, the members of each createdByTeams team. */
  needs: readonly Need[];
}
