import { toFieldErrors, type FieldError, validated } from '../../validation/field-errors';
import { validateEnvironments, validateFacts, validateState, validateTeams } from './generated/facts-schema';
import { pathText } from '../../validation/field-path';
import type { Facts } from './facts';
import type { EnvironmentFacts } from './environment-facts';
import type { TeamFacts } from './team-facts';
import type { RunsByScope, StateFacts } from './state-facts';

export type FactsRead<T> = { ok: true; facts: T } | { ok: false; errors: FieldError[] };

const SCOPE_KEY = /^(?:(?:team|environment):\S|service:[^=\s]+=\S)/;
const SCOPE_KEY_TEXT =
  'a scope key is "team:<team key>", "environment:<environment name or id>" or "service:<attribute>=<value>"';
const RUN_LISTS = ['running', 'ended', 'started'] as const;

/** Scope keys the schema cannot check: `team:`, `environment:` or `service:<attribute>=` and a value, lower-case (as the state store keeps them). */
function scopeKeyErrors(state: StateFacts, at: string[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const list of RUN_LISTS) {
    for (const key of Object.keys(state[list] ?? {})) {
      const path = pathText([...at, list, key]);
      if (!SCOPE_KEY.test(key)) errors.push({ path, message: SCOPE_KEY_TEXT });
      else if (key !== key.toLowerCase())
        errors.push({ path, message: `scope keys are lower-case: write "${key.toLowerCase()}"` });
    }
  }
  return errors;
}

/** Execution ids the overlap part lists but does not describe in its `runs` (schema cannot check this). */
function inProgressErrors(state: StateFacts, at: string[]): FieldError[] {
  const part = state.inProgress;
  if (part === undefined) return [];
  const errors: FieldError[] = [];
  const check = (ids: readonly string[], path: string[]) => {
    for (const [i, id] of ids.entries())
      if (!Object.hasOwn(part.runs, id))
        errors.push({
          path: pathText([...at, 'inProgress', ...path, String(i)]),
          message: `run ${id} is not described in inProgress.runs`,
        });
  };
  for (const [target, ids] of Object.entries(part.targets)) check(ids, ['targets', target]);
  for (const [key, byValue] of Object.entries(part.attributes))
    for (const [value, ids] of Object.entries(byValue)) check(ids, ['attributes', key, value]);
  return errors;
}

/** The runs with every id as text: a numeric execution id (as payloads carry it) is the same run as its decimal text. */
function withTextIds(runs: RunsByScope | undefined): RunsByScope | undefined {
  if (runs === undefined) return undefined;
  return Object.fromEntries(
    Object.entries(runs).map(([key, list]) => [key, list.map((r) => ({ ...r, id: String(r.id) }))]),
  );
}

function normalised(state: StateFacts): StateFacts {
  const out: StateFacts = {};
  if (state.emergencyStop !== undefined) out.emergencyStop = state.emergencyStop;
  for (const list of RUN_LISTS) if (state[list] !== undefined) out[list] = withTextIds(state[list]);
  // The use counts of exceptions with maxUses, or why the service could not count them (docs/approvals.md).
  if (state.exceptionUses !== undefined) out.exceptionUses = state.exceptionUses;
  if (state.exceptionUsesUnknown !== undefined) out.exceptionUsesUnknown = state.exceptionUsesUnknown;
  if (state.inProgress !== undefined) out.inProgress = state.inProgress;
  return out;
}

/** State facts from JSON (`eval --state`, a suite case's `state:`), checked: every problem named by its path. */
export function readStateFacts(value: unknown): FactsRead<StateFacts> {
  if (!validateState(value))
    return { ok: false, errors: toFieldErrors(validateState.errors, validated(validateState, value)) };
  const state = value as StateFacts;
  const errors = [...scopeKeyErrors(state, []), ...inProgressErrors(state, [])];
  return errors.length > 0 ? { ok: false, errors } : { ok: true, facts: normalised(state) };
}

/** Environment names from JSON (`eval --environments`, a suite case's `environments:`), checked. */
export function readEnvironmentFacts(value: unknown): FactsRead<EnvironmentFacts> {
  if (!validateEnvironments(value))
    return { ok: false, errors: toFieldErrors(validateEnvironments.errors, validated(validateEnvironments, value)) };
  return { ok: true, facts: value as EnvironmentFacts };
}

/** Team members from JSON (`eval --teams`): `{"SRE": {"members": [{"username": ..., "email": ...}]}}`, checked. */
export function readTeamFacts(value: unknown): FactsRead<TeamFacts> {
  if (!validateTeams(value))
    return { ok: false, errors: toFieldErrors(validateTeams.errors, validated(validateTeams, value)) };
  return { ok: true, facts: value as TeamFacts };
}

/** Facts from JSON (a recorded decision's, every part), checked the same way. */
export function readFacts(value: unknown): FactsRead<Facts> {
  if (!validateFacts(value))
    return { ok: false, errors: toFieldErrors(validateFacts.errors, validated(validateFacts, value)) };
  const facts = value as Facts;
  const read: Facts = {
    ...(facts.signals === undefined ? {} : { signals: facts.signals }),
    ...(facts.environments === undefined ? {} : { environments: facts.environments }),
    ...(facts.teams === undefined ? {} : { teams: facts.teams }),
  };
  if (facts.state === undefined) return { ok: true, facts: read };
  const errors = [...scopeKeyErrors(facts.state, ['state']), ...inProgressErrors(facts.state, ['state'])];
  return errors.length > 0 ? { ok: false, errors } : { ok: true, facts: { state: normalised(facts.state), ...read } };
}

/** `path: message; path: message`, as usage errors print them. */
export const describeFactErrors = (errors: readonly FieldError[]): string =>
  errors.map((e) => `${e.path}: ${e.message}`).join('; ');
