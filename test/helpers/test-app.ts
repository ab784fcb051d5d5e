import { createApp, type AppDeps } from '../../src/app';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import { loadBundle } from '../../src/policy/loading/load-bundle';
import { PolicyStore } from '../../src/policy/runtime/policy-store';
import type { PolicyBundle } from '../../src/policy/core/compiled';

/** A bundle from inline YAML documents; throws with every problem when the YAML is invalid. */
export function bundleFrom(files: Record<string, string>, now = new Date()): PolicyBundle {
  const result = loadBundle(
    Object.entries(files).map(([file, text]) => ({ file, text })),
    now,
  );
  if (!result.ok)
    throw new Error(result.problems.map((p) => `${p.file}:${p.line}:${p.col} ${p.path} ${p.message}`).join('\n'));
  return result.bundle;
}

/** An in-process app (supertest target) with a private registry and a silent logger. */
export function testApp(bundle: PolicyBundle | undefined, overrides: Partial<AppDeps> = {}) {
  const metrics = createMetrics({ defaultMetrics: false });
  const store = new PolicyStore(bundle);
  const logger = createLogger('info', { silent: true });
  const app = createApp({ store, secrets: [], logger, metrics, ...overrides });
  return { app, metrics, store, logger };
}
