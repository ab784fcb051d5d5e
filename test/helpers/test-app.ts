import { createApp, type AppOptions } from '../../src/service/create-app';
import { createLogger, type Logger } from '../../src/common/logger';
import { createMetrics, type Metrics } from '../../src/observability/metrics';
import { PolicyStore } from '../../src/policy/runtime/policy-store';
import type { PolicyBundle } from '../../src/policy/core/compiled';
import type { FactSource } from '../../src/policy/core/fact-source';
import { serviceCapabilities, type ServiceParts } from '../../src/service/service-capabilities';

/** What a test may set: createApp's options and the service's parts, side by side; `factSources` are given as they are. */
export interface TestAppOverrides extends AppOptions, Omit<ServiceParts, 'sources'> {
  store?: PolicyStore;
  secrets?: readonly string[];
  logger?: Logger;
  metrics?: Metrics;
  factSources?: readonly FactSource[];
}

/** An in-process app (supertest target) with a private registry and a silent logger. */
export function testApp(bundle: PolicyBundle | undefined, overrides: TestAppOverrides = {}) {
  const {
    store = new PolicyStore(bundle),
    secrets = [],
    logger = createLogger('info', { silent: true }),
    metrics = createMetrics({ defaultMetrics: false }),
    state,
    platform,
    signals,
    factSources,
    archive,
    notifier,
    guard,
    playground,
    ...options
  } = overrides;
  const parts: ServiceParts = { state, platform, signals, sources: factSources, archive, notifier, guard, playground };
  const capabilities = serviceCapabilities(parts, logger);
  const app = createApp({ store, secrets, logger, metrics, capabilities, options });
  return { app, metrics, store, logger };
}
