import type { Registry } from 'prom-client';
import type { Logger } from './observability/logger';
import type { EnvironmentDirectory } from './platform/environment-directory';
import { environmentFactSource } from './platform/environment-fact-source';
import type { TeamDirectory } from './platform/team-directory';
import { teamFactSource } from './platform/team-fact-source';
import type { FactSource } from './policy/core/fact-source';
import type { Need } from './policy/facts/need';
import { serviceSignalSource } from './signals/service-signal-source';
import type { SignalsConfig } from './signals/signal-source';
import type { GuardrailState } from './state/guardrail-state';
import { stateFactSource } from './state/state-fact-source';

/** What the service's fact sources are built from; a part left out is a source the service does not have. */
export interface FactSourceParts {
  logger: Logger;
  /** Guardrails with memory: the state store (docs/state.md). */
  state?: GuardrailState;
  /** Live signals: the deployment's Alertmanager and Prometheus sources (docs/signals.md). */
  signals?: { config: SignalsConfig; registry: Registry; needs?: readonly Need[] };
  /** The Steadybit names of environments, from the Platform API (docs/platform-api.md). */
  platform?: { directory: EnvironmentDirectory; teams?: TeamDirectory };
}

/** The service's fact sources, as a preflight and as the guard's tick ask them. */
export interface ServiceFactSources {
  /** Asked for each preflight: live signals through their answer cache (SIGNAL_CACHE_TTL_MS). */
  preflight: FactSource[];
  /** Asked at each guard tick: the same sources, live signals read fresh once per tick (docs/guard.md). */
  guard: FactSource[];
  /** The guard starts a tick (RunGuardDeps.nextTick): the live signals are read again. */
  nextTick(): void;
}

/**
 * Every fact source of the service, in the order they are asked: the state store, live signals,
 * the Platform API's environment names and team members. The one place sources are put together (server.ts for the
 * service, createApp for an app given only its state); a new source is added here.
 */
export function assembleFactSources(parts: FactSourceParts): ServiceFactSources {
  const { logger, state, signals, platform } = parts;
  const first: FactSource[] = [];
  const last: FactSource[] = [];
  if (state) first.push(stateFactSource({ ...state, logger }));
  const live =
    signals && serviceSignalSource(signals.config, { registry: signals.registry, logger, needs: signals.needs });
  if (platform) last.push(environmentFactSource(platform.directory));
  if (platform?.teams) last.push(teamFactSource(platform.teams));
  return {
    preflight: [...first, ...(live ? [live.preflight] : []), ...last],
    guard: [...first, ...(live ? [live.guard] : []), ...last],
    nextTick: () => live?.nextTick(),
  };
}
