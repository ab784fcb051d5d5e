import type { Logger } from '../observability/logger';
import type { Registry } from 'prom-client';
import type { FactSource } from '../policy/facts/gather-facts';
import { createSignalGatherer } from './gather-signals';
import { signalFactSource } from './signal-fact-source';
import { createSignalMetrics } from './signal-metrics';
import type { SignalsConfig } from './signal-source';

/**
 * The live-signal fact source of a service (docs/signals.md): its metrics in the service's
 * registry, its configured sources logged (addresses only, never credentials).
 */
export function serviceSignalSource(config: SignalsConfig, deps: { registry: Registry; logger: Logger }): FactSource {
  deps.logger.info('signal sources', {
    sources: config.sources.map((s) => ({ kind: s.kind, name: s.name, url: s.url, auth: s.auth?.type ?? 'none', privateCa: s.ca !== undefined })),
    cacheTtlMs: config.cacheTtlMs,
    timeoutMs: config.timeoutMs,
  });
  const metrics = createSignalMetrics(deps.registry, config);
  return signalFactSource(createSignalGatherer({ config, metrics }));
}
