import { createApp, type AppDeps } from '../../src/app';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import { PolicyStore } from '../../src/policy/runtime/policy-store';
import type { PolicyBundle } from '../../src/policy/core/compiled';

/** An in-process app (supertest target) with a private registry and a silent logger. */
export function testApp(bundle: PolicyBundle | undefined, overrides: Partial<AppDeps> = {}) {
  const metrics = createMetrics({ defaultMetrics: false });
  const store = new PolicyStore(bundle);
  const logger = createLogger('info', { silent: true });
  const app = createApp({ store, secrets: [], logger, metrics, ...overrides });
  return { app, metrics, store, logger };
}
