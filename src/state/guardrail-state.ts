import type { OnUnavailable, RunsInProgressIndex } from './state-fact-source';
import type { StateConfig } from './state-config';
import type { StateStore } from './state-store';
import { keepsExceptionUses } from './create-state-store';

/** What createApp needs for guardrails with memory: the store and how to use it. */
export interface GuardrailState {
  store: StateStore;
  onUnavailable: OnUnavailable;
  /** `enforce`: the built-in emergency stop policy applies to every run (the default). */
  emergencyStop: 'enforce' | 'off';
  eventToleranceMs: number;
  /** The guard's runs in progress, for noOverlap rules (the service gives them; without, those rules cannot decide). */
  inProgress?: RunsInProgressIndex;
  /** False: exception uses are counted nowhere that lasts (in memory, no EXCEPTION_USES_FILE), so maxUses waives nothing. */
  keepsExceptionUses?: boolean;
}

export function guardrailState(config: StateConfig, store: StateStore): GuardrailState {
  return {
    store,
    onUnavailable: config.onUnavailable,
    emergencyStop: config.emergencyStop,
    eventToleranceMs: config.eventToleranceMs,
    keepsExceptionUses: keepsExceptionUses(config),
  };
}
