import { compileGlobs } from './glob';
import { environmentSet, isListed } from './environments';
import type { ActionStepRef, Facts } from './types';

/** `match:` / `exclude:` in YAML. Lists are OR-ed; fields are AND-ed. */
export interface ScopeSpec {
  teams?: string[];
  environments?: string[];
  experimentKeys?: string[];
  actionIds?: string[];
  actionKinds?: string[];
  createdVia?: string[];
}

export const CREATED_VIA = ['API', 'CLI', 'UI', 'SCHEDULE', 'MCP', 'SUITE'] as const;
export const ACTION_KINDS = ['ATTACK', 'CHECK', 'LOAD_TEST', 'OTHER', 'BASIC'] as const;

const list = (items: Record<string, unknown>, description: string) => ({ type: 'array', minItems: 1, items, description });

export const scopeSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    teams: list({ type: 'string', minLength: 1 }, 'Team keys, e.g. ADM.'),
    environments: list({ type: 'string', minLength: 1 }, 'Environment names, ids or alias names.'),
    experimentKeys: list({ type: 'string', minLength: 1 }, 'Experiment keys or globs, e.g. SHOP-*.'),
    actionIds: list({ type: 'string', minLength: 1 }, 'Action id globs, e.g. "*shutdown*". Scopes the step rules to these steps.'),
    actionKinds: list({ type: 'string', enum: [...ACTION_KINDS] }, 'Action kinds. Scopes the step rules to these steps.'),
    createdVia: list({ type: 'string', enum: [...CREATED_VIA] }, 'How the run was started.'),
  },
} as const;

export interface CompiledScope {
  /** Why the run is outside this scope, or undefined when it is inside. */
  runMiss(facts: Facts): string | undefined;
  /** Whether the scope says anything about steps. */
  hasStepFilter: boolean;
  stepMatches(step: ActionStepRef): boolean;
}

interface Field { name: string; test(facts: Facts): boolean | undefined }

/** Compiles a scope. `isExclude` flips how missing data counts: unknown never narrows a policy. */
export function compileScope(spec: ScopeSpec | undefined, isExclude: boolean): CompiledScope {
  const fields: Field[] = [];
  const upper = (xs: string[]) => new Set(xs.map((x) => x.toUpperCase()));
  if (spec?.teams) {
    const teams = upper(spec.teams);
    fields.push({ name: 'teams', test: (f) => (f.execution.teamKey === undefined ? undefined : teams.has(f.execution.teamKey.toUpperCase())) });
  }
  if (spec?.environments) {
    const envs = environmentSet(spec.environments);
    fields.push({ name: 'environments', test: (f) => (f.environments.length === 0 ? undefined : f.environments.some((e) => isListed(e, envs))) });
  }
  if (spec?.experimentKeys) {
    const keys = compileGlobs(spec.experimentKeys);
    fields.push({ name: 'experimentKeys', test: (f) => (f.execution.experimentKey === undefined ? undefined : keys(f.execution.experimentKey)) });
  }
  if (spec?.createdVia) {
    const via = upper(spec.createdVia);
    fields.push({ name: 'createdVia', test: (f) => (f.execution.createdVia === undefined ? undefined : via.has(f.execution.createdVia.toUpperCase())) });
  }
  const ids = spec?.actionIds ? compileGlobs(spec.actionIds) : undefined;
  const kinds = spec?.actionKinds ? upper(spec.actionKinds) : undefined;
  const hasStepFilter = ids !== undefined || kinds !== undefined;
  // For match, unknown action id/kind keeps the step (never narrows); for exclude it keeps it too.
  const stepMatches = (s: ActionStepRef): boolean => {
    const idOk = ids === undefined || (s.step.actionId === undefined ? !isExclude : ids(s.step.actionId));
    const kindOk = kinds === undefined || (s.step.actionKind === undefined ? !isExclude : kinds.has(s.step.actionKind.toUpperCase()));
    return idOk && kindOk;
  };
  return {
    hasStepFilter,
    stepMatches,
    runMiss(facts) {
      if (!isExclude) {
        // A field the payload does not carry keeps the policy in scope: unknown never narrows.
        const missed = fields.find((field) => field.test(facts) === false);
        return missed ? `${missed.name} not matched` : undefined;
      }
      // Exclude only when every field is known to match.
      if (fields.length === 0 || !fields.every((field) => field.test(facts) === true)) return undefined;
      return `excluded by ${fields.map((f) => f.name).join(', ')}`;
    },
  };
}
