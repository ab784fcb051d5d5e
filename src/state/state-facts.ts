import type { Facts, RunScopes, Violation } from '../policy/types';
import { scopeKey, type ScopeKind } from './scope-key';
import type { RunRef, StateQuery, StateView } from './state-store';

/**
 * The state facts a rule can ask for (CompiledRule.needsState). Windows travel in the name
 * (`ended:1800000`) so the preflight reads only as far back as the bundle's rules look.
 */
export const NEEDS_EMERGENCY_STOP = 'emergencyStop';
export const NEEDS_RUNNING = 'running';
export const needsEnded = (windowMs: number) => `ended:${windowMs}`;
export const needsStarted = (windowMs: number) => `started:${windowMs}`;

/** The one read a preflight makes for the given needs, or undefined when nothing is needed. */
export function stateQuery(needs: Iterable<string>, scopes: readonly string[], nowMs: number): StateQuery | undefined {
  const query: StateQuery = { emergencyStop: false, running: false, scopes };
  let any = false;
  for (const need of needs) {
    any = true;
    const [name, window] = need.split(':');
    if (name === NEEDS_EMERGENCY_STOP) query.emergencyStop = true;
    else if (name === NEEDS_RUNNING) query.running = true;
    else if (name === 'ended') query.endedSinceMs = Math.min(query.endedSinceMs ?? nowMs, nowMs - Number(window));
    else if (name === 'started') query.startedSinceMs = Math.min(query.startedSinceMs ?? nowMs, nowMs - Number(window));
    else throw new Error(`unknown state need "${need}"`);
  }
  return any ? query : undefined;
}

export type Fact<K extends keyof StateView> = NonNullable<StateView[K]>;

/** A state fact loaded for this preflight; undefined when it was not (the rule cannot decide). */
export function stateFact<K extends keyof StateView>(facts: Facts, key: K): Fact<K> | undefined {
  return facts.state?.[key] as Fact<K> | undefined;
}

export const notLoaded = (what: string): Violation => ({ reason: `cannot decide: the ${what} state was not loaded`, undecidable: true });

export interface RunScope { key: string; label: string }

/**
 * The run's own scopes of one kind (`environment` can be two, with an override), or why there are
 * none. The same for every state rule of a request: built once per request and kind, never written to.
 */
export function runScopes(facts: Facts, per: ScopeKind): RunScopes {
  return per === 'team' ? (facts.memo.teamScopes ??= teamScopes(facts)) : (facts.memo.environmentScopes ??= environmentScopes(facts));
}

function teamScopes(facts: Facts): RunScopes {
  const team = facts.execution.teamKey;
  if (!team) return Object.freeze({ reason: 'cannot decide: the payload names no team (execution.teamKey is missing)', undecidable: true });
  return Object.freeze([{ key: scopeKey('team', team), label: `team ${team}` }]);
}

function environmentScopes(facts: Facts): RunScopes {
  if (facts.environments.length === 0) return Object.freeze({ reason: 'cannot decide: the payload names no environment (execution.environment is missing)', undecidable: true });
  return Object.freeze(facts.environments.map((e) => ({ key: scopeKey('environment', e.value), label: `environment ${e.value}` })));
}

/** Whether the run has no scope of the kind (the value is then the violation that says why). */
export const noScopes = (scopes: RunScopes): scopes is Violation => !Array.isArray(scopes);

const NO_RUNS: readonly RunRef[] = Object.freeze([]);

/** Runs other than the one being preflighted (Steadybit may report its creation first). */
export function otherRuns(runs: readonly RunRef[] | undefined, facts: Facts): readonly RunRef[] {
  if (runs === undefined || runs.length === 0) return NO_RUNS;
  const self = facts.execution.id === undefined ? undefined : String(facts.execution.id);
  return runs.filter((r) => r.id !== self);
}

export const iso = (ms: number) => new Date(ms).toISOString();
