import type { FactSource } from '../policy/core/fact-source';
import type { Capability } from './capability';

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
 * Every fact source the capabilities declare, in their order (service-capabilities.ts): the one
 * place sources are put together, for preflights (create-app.ts) and the guard (build-service.ts) alike.
 */
export function serviceFactSources(capabilities: readonly Capability[]): ServiceFactSources {
  const sources = capabilities.flatMap((c) => c.sources ?? []);
  const ticks = capabilities.flatMap((c) => (c.nextTick ? [c.nextTick] : []));
  return {
    preflight: sources.map((s) => s.preflight),
    guard: sources.map((s) => s.guard),
    nextTick: () => {
      for (const tick of ticks) tick();
    },
  };
}
