import type { Logger } from '../common/logger';
import type { Registry } from 'prom-client';
import type { FactSource } from '../policy/core/fact-source';
import type { Need } from '../policy/facts/need';
import { createSignalGatherer } from './signal-gatherer';
import { signalFactSource } from './signal-fact-source';
import { createSignalMetrics } from './signal-metrics';
import type { SignalsConfig } from './signal-source';
import { createTickAnswerCache } from './tick-answer-cache';
import {
  UNCONFIGURED_FAIL_OPEN_ERROR,
  UNCONFIGURED_SOURCES_WARNING,
  unconfiguredSources,
} from './unconfigured-sources';

/** A calendar's address as logged: its origin only, since secret calendar addresses carry their token in the path. */
function calendarUrlText(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname === '/' ? parsed.origin : `${parsed.origin}/…`;
}

/** The live signals of a service, as its preflights and its guard ask them. */
export interface ServiceSignals {
  /** For preflights: answers kept SIGNAL_CACHE_TTL_MS, so a burst of preflights costs one query. */
  preflight: FactSource;
  /** For the guard's ticks: every answer read fresh at each tick, once for all of its runs (docs/guard.md). */
  guard: FactSource;
  /** A guard tick starts: nothing the last tick read is used again. */
  nextTick(): void;
  /** The sources `needs` name that the deployment does not configure, for the rules with that onUnavailable. */
  unconfigured(needs: readonly Need[], onUnavailable: 'deny' | 'allow'): string[];
}

/**
 * The live-signal fact sources of a service (docs/signals.md): its metrics in the service's
 * registry, its configured sources logged (addresses only, never credentials), and a warning when
 * the policies ask a source that is not configured (an error when the rules asking it have
 * `onUnavailable: allow`: they are switched off): at start-up (`needs`: the first policy set's)
 * and the first time a later set (a reload) asks another one. Preflights and the guard ask the same
 * sources through two caches: the guard's lives one tick, so a stop never waits for a cached answer.
 */
export function serviceSignalSource(
  config: SignalsConfig,
  deps: { registry: Registry; logger: Logger; needs?: readonly Need[] },
): ServiceSignals {
  deps.logger.info('signal sources', {
    sources: config.sources.map((s) => ({
      kind: s.kind,
      name: s.name,
      url: s.calendar ? calendarUrlText(s.url) : s.url,
      auth: s.auth?.type ?? 'none',
      privateCa: s.ca !== undefined,
      ...(s.calendar ? { format: 'ical' } : {}),
    })),
    cacheTtlMs: config.cacheTtlMs,
    timeoutMs: config.timeoutMs,
  });
  const metrics = createSignalMetrics(deps.registry, config);
  const tick = createTickAnswerCache();
  const warned = new Set<string>();
  const warnUnconfigured = (needs: readonly Need[]) => {
    for (const onUnavailable of ['deny', 'allow'] as const) {
      const missing = unconfiguredSources(needs, config, onUnavailable).filter(
        (s) => !warned.has(`${onUnavailable} ${s}`),
      );
      if (missing.length === 0) continue;
      for (const s of missing) warned.add(`${onUnavailable} ${s}`);
      if (onUnavailable === 'deny') deps.logger.warn(UNCONFIGURED_SOURCES_WARNING, { sources: missing });
      else deps.logger.error(UNCONFIGURED_FAIL_OPEN_ERROR, { sources: missing });
    }
  };
  warnUnconfigured(deps.needs ?? []);
  const warning = (inner: FactSource): FactSource => ({
    ...inner,
    gather(needs, payload, now, directory, environments) {
      warnUnconfigured(needs);
      return inner.gather(needs, payload, now, directory, environments);
    },
  });
  return {
    preflight: warning(signalFactSource(createSignalGatherer({ config, metrics }))),
    guard: warning(signalFactSource(createSignalGatherer({ config, metrics, cache: tick }))),
    nextTick: () => tick.nextTick(),
    unconfigured: (needs, onUnavailable) => unconfiguredSources(needs, config, onUnavailable),
  };
}
