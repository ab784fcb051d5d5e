import { ENVIRONMENT_NAMES } from '../facts/environment-facts';
import type { CompiledScope, OwnedBySpec, ScopeSpec } from '../core/compiled-scope';
import { compileGlobs } from '../core/glob-matcher';
import { allListed, anyListed, environmentSet } from './environments';
import type { EvaluationContext } from '../core/evaluation-context';
import { memoKey } from '../core/memo';
import type { ActionStepRef } from '../core/decision';
import type { Need } from '../facts/need';
import type { TeamMember } from '../facts/team-facts';
import { starterOf, type StarterIdentity } from './starter-identity';
import { compileOwnership, namedTargets } from './owned-targets';

export const CREATED_VIA = ['API', 'CLI', 'UI', 'SCHEDULE', 'MCP', 'SUITE'] as const;
export const ACTION_KINDS = ['ATTACK', 'CHECK', 'LOAD_TEST', 'OTHER', 'BASIC'] as const;

const list = (items: Record<string, unknown>, description: string) => ({
  type: 'array',
  minItems: 1,
  items,
  description,
});

export const scopeSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    teams: list({ type: 'string', minLength: 1, syntax: 'name' }, 'Team keys, e.g. ADM.'),
    environments: list({ type: 'string', minLength: 1, syntax: 'name' }, 'Environment names, ids or alias names.'),
    experimentKeys: list({ type: 'string', minLength: 1, syntax: 'glob' }, 'Experiment keys or globs, e.g. SHOP-*.'),
    actionIds: list(
      { type: 'string', minLength: 1, syntax: 'glob' },
      'Action id globs, e.g. "*shutdown*". Scopes the step rules to these steps.',
    ),
    actionKinds: list(
      { type: 'string', enum: [...ACTION_KINDS] },
      'Action kinds. Scopes the step rules to these steps.',
    ),
    createdVia: list({ type: 'string', enum: [...CREATED_VIA] }, 'How the run was started.'),
    experimentVersions: list(
      {
        anyOf: [
          { type: 'integer', minimum: 0 },
          { type: 'string', minLength: 1 },
        ],
      },
      'Versions of the experiment (execution.experimentVersion), e.g. 3.',
    ),
    createdBy: list(
      { type: 'string', minLength: 1, syntax: 'glob' },
      'Who started the run: execution.createdBy.username (the Steadybit user id) or .email, case-insensitive; globs such as "*@sre.example.com".',
    ),
    createdByTeams: list(
      { type: 'string', minLength: 1, syntax: 'name' },
      'Steadybit teams (keys) whose members started the run, read from the Platform API (GET /api/teams/{key}/members); cannot decide without it.',
    ),
  },
} as const;

/** `match.ownedBy` of a policy (not of exclude or an exception's match: an owner keeps a policy, it does not carve runs out of one). */
export const ownedBySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['team', 'attribute'],
  description:
    "Runs of any team that reach targets this Steadybit team owns: a target is the team's when its attribute is the team key (ignoring case) or one of values. Exceptions to the policy need an approver from the team.",
  properties: {
    team: { type: 'string', minLength: 1, syntax: 'name', description: 'The owning Steadybit team (its key).' },
    attribute: {
      type: 'string',
      minLength: 1,
      syntax: 'trimmed',
      description:
        'The target attribute that names the owner, e.g. k8s.label.team, or the service, e.g. k8s.deployment.',
    },
    values: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { type: 'string', minLength: 1, syntax: 'trimmed' },
      description: "The attribute's values the team owns (exact), e.g. [checkout, cart]; default: the team key.",
    },
    whenMissing: {
      type: 'string',
      enum: ['deny', 'notOwned'],
      default: 'deny',
      description:
        "deny: a listed target without the attribute cannot be placed (cannot decide); notOwned: it is not the team's.",
    },
  },
} as const;

/** The scope of a policy's `match`: the scope fields and `ownedBy`. */
export const policyMatchSchema = {
  ...scopeSchema,
  properties: { ...scopeSchema.properties, ownedBy: ownedBySchema },
} as const;

/**
 * One run-level field: the run's value(s) as text, and whether they are listed (undefined: unknown).
 * A run may touch several environments (its own and the override): `every` asks whether all of
 * them are listed (exclude, waivers), otherwise whether any is (match).
 */
interface Field {
  name: keyof ScopeSpec;
  what: string;
  listed: readonly string[];
  actual(ctx: EvaluationContext): string | undefined;
  test(ctx: EvaluationContext, every?: boolean): boolean | undefined;
  /** Why the field cannot be decided for this run from facts that cannot be known (not missing payload data), if so. */
  unknown?(ctx: EvaluationContext): string | undefined;
}

/** Whether a listed member is the run's starter: same username, or same email (both lower-cased). */
function isMember(member: TeamMember, starter: StarterIdentity): boolean {
  if (starter.username !== undefined && member.username.toLowerCase() === starter.username) return true;
  return starter.email !== undefined && member.email !== undefined && member.email.toLowerCase() === starter.email;
}

const STARTER_IN_TEAM = memoKey<Map<string, boolean>>("whether the run's starter is a member, by team read");

/** Whether the starter is one of the team's members: each team's list is scanned once per decision, however many scopes name it. */
function starterIsIn(team: string, read: { members: readonly TeamMember[] }, ctx: EvaluationContext): boolean {
  const known = ctx.memo.get(STARTER_IN_TEAM, () => new Map<string, boolean>());
  let isIn = known.get(team);
  if (isIn === undefined) {
    const starter = starterOf(ctx);
    known.set(team, (isIn = read.members.some((m) => isMember(m, starter))));
  }
  return isIn;
}

/** The starter in skip reasons: their email, else username. */
const starterText = (ctx: EvaluationContext) => starterOf(ctx).text ?? 'unknown';

/** `createdBy:` globs over the starter's username and email. */
function createdByField(listed: string[]): Field {
  const people = compileGlobs(listed);
  return {
    name: 'createdBy',
    what: 'starter',
    listed,
    actual: starterText,
    test: (ctx) => {
      const { all } = starterOf(ctx);
      return all.length === 0 ? undefined : all.some((v) => people(v));
    },
  };
}

/** `createdByTeams:` the starter is a member of one of these teams, as the facts list the members. */
function createdByTeamsField(teams: string[]): Field {
  return {
    name: 'createdByTeams',
    what: 'starter',
    listed: teams,
    actual: starterText,
    test: (ctx) => {
      const starter = starterOf(ctx);
      if (starter.all.length === 0) return undefined;
      let unknown = false;
      for (const team of teams) {
        const read = ctx.facts.teams?.[team];
        if (read === undefined || 'unknown' in read) unknown = true;
        else if (starterIsIn(team, read, ctx)) return true;
      }
      return unknown ? undefined : false;
    },
    unknown: (ctx) => {
      if (starterOf(ctx).all.length === 0) return undefined;
      for (const team of teams) {
        const read = ctx.facts.teams?.[team];
        if (read === undefined)
          return `the members of Steadybit team ${team} were not read (they come from the Steadybit Platform API: set STEADYBIT_URL)`;
        if ('unknown' in read) return read.unknown;
      }
      return undefined;
    },
  };
}

/** `ownedBy:` some expected target of some step is the team's (owned-targets.ts), whoever started the run. */
function ownedByField(spec: OwnedBySpec): Field {
  const ownership = compileOwnership(spec);
  return {
    name: 'ownedBy',
    what: `the targets' ${spec.attribute}`,
    listed: [`team ${spec.team}${spec.values ? `: ${spec.values.join(', ')}` : ''}`],
    actual: (ctx) => ownership(ctx).seen.join(', ') || 'none',
    test: (ctx) => {
      const o = ownership(ctx);
      return o.owned.length > 0 ? true : o.unknown === undefined ? false : undefined;
    },
    unknown: (ctx) => {
      const o = ownership(ctx);
      return o.owned.length > 0 ? undefined : o.unknown;
    },
  };
}

/** What the run reaches of the team's targets, as the denial says it, and who may approve an exception. */
function ownedReached(spec: OwnedBySpec): (ctx: EvaluationContext) => string | undefined {
  const ownership = compileOwnership(spec);
  return (ctx) => {
    const { owned } = ownership(ctx);
    if (owned.length === 0) return undefined;
    const team = ctx.execution.teamKey === undefined ? '' : ` of team ${ctx.execution.teamKey}`;
    return `this run${team} reaches targets owned by team ${spec.team} (${spec.attribute}): ${namedTargets(owned)}; an exception to this policy needs an approver from team ${spec.team}`;
  };
}

/** The run's environments as skip reasons name them, e.g. `4f1c... (production)`: built once per request. */

const ENVIRONMENT_TEXT = memoKey<string>("the run's environments as skip reasons name them");

function envText(ctx: EvaluationContext): string {
  return ctx.memo.get(ENVIRONMENT_TEXT, () =>
    ctx.environments
      .map((e) => {
        const aliases = [...e.keys].filter((k) => k !== e.value.toLowerCase());
        return aliases.length > 0 ? `${e.value} (${aliases.join(', ')})` : e.value;
      })
      .join(' / '),
  );
}

function runFields(spec: ScopeSpec | undefined): Field[] {
  const fields: Field[] = [];
  const upper = (xs: readonly string[]) => new Set(xs.map((x) => x.toUpperCase()));
  if (spec?.teams) {
    const teams = upper(spec.teams);
    fields.push({
      name: 'teams',
      what: 'team',
      listed: spec.teams,
      actual: (ctx) => ctx.execution.teamKey,
      test: (ctx) => (ctx.upperCased.teamKey === undefined ? undefined : teams.has(ctx.upperCased.teamKey)),
    });
  }
  if (spec?.environments) {
    const envs = environmentSet(spec.environments);
    fields.push({
      name: 'environments',
      what: 'environment',
      listed: spec.environments,
      actual: envText,
      test: (ctx, every) => {
        if (ctx.environments.length === 0) return undefined;
        return every ? allListed(ctx.environments, envs) : anyListed(ctx.environments, envs);
      },
      unknown: (ctx) => ctx.environments.find((e) => e.unknownName !== undefined)?.unknownName,
    });
  }
  if (spec?.experimentKeys) {
    const keys = compileGlobs(spec.experimentKeys);
    fields.push({
      name: 'experimentKeys',
      what: 'experiment key',
      listed: spec.experimentKeys,
      actual: (ctx) => ctx.execution.experimentKey,
      test: (ctx) => (ctx.execution.experimentKey === undefined ? undefined : keys(ctx.execution.experimentKey)),
    });
  }
  if (spec?.createdVia) {
    const via = upper(spec.createdVia);
    fields.push({
      name: 'createdVia',
      what: 'createdVia',
      listed: spec.createdVia,
      actual: (ctx) => ctx.execution.createdVia,
      test: (ctx) => (ctx.upperCased.createdVia === undefined ? undefined : via.has(ctx.upperCased.createdVia)),
    });
  }
  if (spec?.experimentVersions) {
    const versions = spec.experimentVersions.map(String);
    const listed = new Set(versions);
    const version = (ctx: EvaluationContext) =>
      ctx.execution.experimentVersion === undefined ? undefined : String(ctx.execution.experimentVersion);
    fields.push({
      name: 'experimentVersions',
      what: 'experiment version',
      listed: versions,
      actual: version,
      test: (ctx) => {
        const v = version(ctx);
        return v === undefined ? undefined : listed.has(v);
      },
    });
  }
  if (spec?.createdBy) fields.push(createdByField(spec.createdBy));
  if (spec?.createdByTeams) fields.push(createdByTeamsField(spec.createdByTeams));
  if (spec?.ownedBy) fields.push(ownedByField(spec.ownedBy));
  return fields;
}

/** What a scope needs gathered: the environment names when it lists environments, each createdByTeams team's members. */
function scopeNeeds(spec: ScopeSpec | undefined): Need[] {
  const needs: Need[] = spec?.environments ? [ENVIRONMENT_NAMES] : [];
  for (const team of spec?.createdByTeams ?? []) needs.push({ kind: 'team-members', team });
  return needs;
}

/**
 * Compiles a scope. `isExclude` flips how missing data counts: unknown never narrows a policy
 * (a match field the payload lacks keeps it in scope; an exclude field it lacks does not exclude).
 */
export function compileScope(spec: ScopeSpec | undefined, isExclude: boolean): CompiledScope {
  const label = isExclude ? 'exclude' : 'match';
  const fields = runFields(spec);
  const ids = spec?.actionIds ? compileGlobs(spec.actionIds) : undefined;
  const kinds = spec?.actionKinds ? new Set(spec.actionKinds.map((k) => k.toUpperCase())) : undefined;
  const stepFilterText = [
    spec?.actionIds ? `${label}.actionIds (${spec.actionIds.join(', ')})` : '',
    spec?.actionKinds ? `${label}.actionKinds (${spec.actionKinds.join(', ')})` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  // For match, an unknown action id/kind keeps the step; for exclude, it does not exclude it.
  const stepMatches = (s: ActionStepRef): boolean => {
    const idOk = ids === undefined || (s.step.actionId === undefined ? !isExclude : ids(s.step.actionId));
    const kindOk =
      kinds === undefined ||
      (s.step.actionKind === undefined ? !isExclude : kinds.has(s.step.actionKind.toUpperCase()));
    return idOk && kindOk;
  };
  // Known to match: an unknown action id/kind is never covered (exceptions use this).
  const stepCovered = (s: ActionStepRef): boolean =>
    (ids === undefined || (s.step.actionId !== undefined && ids(s.step.actionId))) &&
    (kinds === undefined || (s.step.actionKind !== undefined && kinds.has(s.step.actionKind.toUpperCase())));
  // The constant end of each field's skip reason, e.g. `not in match.teams (ADM, SHOP)`, written once.
  const lists = fields.map(
    (field) => `${isExclude ? 'in' : 'not in'} ${label}.${field.name} (${field.listed.join(', ')})`,
  );
  const listed = (i: number, ctx: EvaluationContext) => `${fields[i].what} ${fields[i].actual(ctx)} ${lists[i]}`;
  const runCovered = (ctx: EvaluationContext): boolean => {
    for (const field of fields) if (field.test(ctx, true) !== true) return false;
    return true;
  };
  const hasStepFilter = ids !== undefined || kinds !== undefined;
  return {
    narrowsRun: fields.length > 0,
    hasStepFilter,
    stepMatches,
    stepFilterText,
    stepCovered,
    runCovered,
    needs: scopeNeeds(spec),
    readsMembers: spec?.createdByTeams !== undefined,
    // The owner's parts, for a match that names one (ownedBy); undefined otherwise.
    owningTeam: spec?.ownedBy?.team,
    ownedReached: spec?.ownedBy ? ownedReached(spec.ownedBy) : undefined,
    membersUnread(ctx) {
      const teams = fields.findIndex((f) => f.name === 'createdByTeams');
      if (teams < 0 || fields.some((f, j) => j !== teams && f.test(ctx, true) !== true)) return undefined;
      const field = fields[teams];
      if (field.test(ctx, true) !== undefined) return undefined;
      const why = field.unknown?.(ctx);
      return why === undefined
        ? undefined
        : `cannot decide whether the run is in ${label}.createdByTeams (${field.listed.join(', ')}): ${why}`;
    },
    undecided(ctx) {
      for (let i = 0; i < fields.length; i++) {
        const field = fields[i];
        if (field.unknown === undefined || field.test(ctx, isExclude) !== undefined) continue;
        const why = field.unknown(ctx);
        if (why === undefined) continue;
        // An exclude only matters when every other field is known to match.
        if (isExclude && fields.some((f, j) => j !== i && f.test(ctx, true) !== true)) continue;
        return {
          field: `${label}.${field.name}`,
          reason: `cannot decide whether the run is in ${label}.${field.name} (${field.listed.join(', ')}): ${why}`,
        };
      }
      return undefined;
    },
    runMiss(ctx) {
      if (!isExclude) {
        for (let i = 0; i < fields.length; i++) if (fields[i].test(ctx) === false) return listed(i, ctx);
        return undefined;
      }
      // Exclude only when every field is known to match. With step fields too, the run-level fields
      // only say in which runs those steps are excluded (scopedSteps): the run is never excluded whole.
      if (fields.length === 0 || hasStepFilter || !runCovered(ctx)) return undefined;
      return `excluded: ${fields.map((_, i) => listed(i, ctx)).join(' and ')}`;
    },
  };
}
