import type { Logger } from '../common/logger';
import type { PreflightPayload } from '../payload/types';
import type { FactSource, Gathered } from '../policy/core/fact-source';
import type { Need } from '../policy/facts/need';
import { type InProgressFacts, scopeKey, type ScopeKind, type StateNeed } from '../policy/facts/state-facts';
import { quietFacts } from '../policy/facts/quiet-facts';
import { serviceScopes } from './execution-scopes';
import { StateUnavailableError, type StateQuery, type StateStore } from './state-store';

export type OnUnavailable = 'deny' | 'allow';

/**
 * The runs in progress that share a target, or a value of one of `attributes`, with a payload's run:
 * what the `in-progress` state need reads. The guard keeps the runs and answers it (guard/runs-in-progress.ts).
 */
export interface RunsInProgressIndex {
  sharing(payload: PreflightPayload, attributes: readonly string[], nowMs: number): Promise<InProgressFacts>;
}

export interface StateFactSourceDeps {
  store: StateStore;
  onUnavailable: OnUnavailable;
  logger: Logger;
  /** The guard's runs in progress (noOverlap rules); without it their part is not gathered and they cannot decide. */
  inProgress?: RunsInProgressIndex;
}

const STATE_KINDS: ReadonlyArray<StateNeed['kind']> = [
  'emergency-stop',
  'running',
  'ended',
  'started',
  'exception-uses',
  'in-progress',
];

/** The attribute keys the overlap needs ask for, or undefined when no rule asks for runs in progress. */
export function overlapKeys(needs: readonly Need[]): string[] | undefined {
  let keys: string[] | undefined;
  for (const need of needs) {
    if (need.kind !== 'in-progress') continue;
    keys ??= [];
    if (need.attribute !== undefined && !keys.includes(need.attribute)) keys.push(need.attribute);
  }
  return keys;
}

/**
 * The run's scope keys of the kinds asked for: its team, every environment it touches (incl. an
 * override), each service it attacks by the attributes asked for (`services`).
 */
function scopesOf(
  execution: PreflightPayload['execution'],
  per: ReadonlySet<ScopeKind>,
  services: ReadonlySet<string>,
): string[] {
  const keys = new Set<string>(services.size === 0 ? [] : serviceScopes(execution, services));
  if (per.has('team') && execution.teamKey) keys.add(scopeKey('team', execution.teamKey));
  if (per.has('environment')) {
    if (execution.environment) keys.add(scopeKey('environment', execution.environment));
    if (execution.overrides?.environment) keys.add(scopeKey('environment', execution.overrides.environment));
  }
  return [...keys];
}

/** The one read a preflight makes for these needs: only as far back as the longest window asks. */
export function stateQuery(
  needs: readonly Need[],
  execution: PreflightPayload['execution'],
  nowMs: number,
): StateQuery {
  const per = new Set<ScopeKind>();
  const services = new Set<string>();
  const query: StateQuery = { emergencyStop: false, running: false, scopes: [] };
  for (const need of needs) {
    switch (need.kind) {
      case 'emergency-stop':
        query.emergencyStop = true;
        break;
      case 'running':
        query.running = true;
        per.add(need.per);
        break;
      case 'ended':
        query.endedSinceMs = Math.min(query.endedSinceMs ?? nowMs, nowMs - need.windowMs);
        if (need.per === 'service') services.add(need.attribute);
        else per.add(need.per);
        break;
      case 'started':
        query.startedSinceMs = Math.min(query.startedSinceMs ?? nowMs, nowMs - need.windowMs);
        per.add(need.per);
        break;
      case 'exception-uses':
        (query.exceptionUses ??= []).push(need.exception);
        break;
      case 'in-progress':
        break; // the guard's store answers these (RunsInProgress), not this query
    }
  }
  return { ...query, scopes: scopesOf(execution, per, services) };
}

/**
 * The state store as a fact source (Facts.state): reads only what the bundle's rules need, in one
 * round trip. When the store is unreachable the answer says so (the route refuses the run with
 * 503), or with STATE_UNAVAILABLE=allow an empty state and a warning in the log (unsafe:
 * guardrails with memory are off until the store returns).
 */
export function stateFactSource(deps: StateFactSourceDeps): FactSource {
  return {
    name: 'state store',
    kinds: STATE_KINDS,
    async gather(needs, payload, now): Promise<Gathered> {
      const query = stateQuery(needs, payload.execution, now.getTime());
      const keys = overlapKeys(needs);
      try {
        // The runs in progress sharing this run's targets, read next to the state (both or neither).
        const [state, inProgress] = await Promise.all([
          deps.store.read(query, now),
          keys && deps.inProgress?.sharing(payload, keys, now.getTime()),
        ]);
        return { ok: true, facts: { state: inProgress ? { ...state, inProgress } : state } };
      } catch (err) {
        if (!(err instanceof StateUnavailableError)) throw err;
        if (deps.onUnavailable === 'allow') {
          deps.logger.warn(
            'state store unavailable; STATE_UNAVAILABLE=allow, so guardrails with memory are not applied',
            { error: err.message },
          );
          return { ok: true, facts: quietFacts(needs) };
        }
        const message = `the state store is unavailable (${err.message}), so emergency stop, concurrency, cool-down and quota policies cannot be checked and the run is denied (STATE_UNAVAILABLE=deny)`;
        return { ok: false, unavailable: { source: 'state store', message } };
      }
    },
  };
}
