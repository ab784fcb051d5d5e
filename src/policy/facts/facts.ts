import type { SignalFacts } from './signal-facts';
import type { EnvironmentFacts } from './environment-facts';
import type { StateFacts } from './state-facts';
import type { TeamFacts } from './team-facts';

/**
 * Everything a decision knows from outside the payload, gathered before deciding (factGatherer)
 * from the needs the bundle's rules declared. Plain JSON data (`schema --facts`), so a decision can
 * be written down and replayed. One optional part per fact source: a part that is missing was not
 * gathered, and a rule that needs it cannot decide (it denies). A new source adds its part here.
 */
export interface Facts {
  /** Guardrails with memory: POST /events as the state store holds it (docs/state.md). */
  state?: StateFacts;
  /** Live signals: what Alertmanager and Prometheus answered (docs/signals.md). */
  signals?: SignalFacts;
  /** The Steadybit names of the run's environments (docs/platform-api.md); absent without the Platform API. */
  environments?: EnvironmentFacts;
  /** The members of the Steadybit teams `createdByTeams` names (docs/policies.md); absent without the Platform API. */
  teams?: TeamFacts;
}

/** No facts at all: every rule that needs one cannot decide. */
export const NO_FACTS: Facts = Object.freeze({});

/**
 * The facts as a run is judged at the door: a run not yet started has no history, so what the
 * guard keeps while a run is in progress (`signals.silentSince`, deadMan) is not read there. The
 * service never gathers it at the door; `eval`, suites and replay give their facts through this,
 * so a file written for a run in progress cannot decide a door case as if the run had started.
 */
export function doorFacts(facts: Facts): Facts {
  if (facts.signals?.silentSince === undefined) return facts;
  const { silentSince: _kept, ...signals } = facts.signals;
  return { ...facts, signals };
}
