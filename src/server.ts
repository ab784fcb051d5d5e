import type { Server } from 'node:http';
import { createApp } from './app';
import type { Config } from './config';
import { UNSIGNED_WARNING } from './http/health-routes';
import { createLogger, type Logger } from './observability/logger';
import { createMetrics } from './observability/metrics';
import { loadPolicyDir } from './policy/load-policy-dir';
import { formatProblem, PolicyLoadError } from './policy/load-error';
import { PolicyStore } from './policy/policy-store';

export interface RunningServer {
  server: Server;
  store: PolicyStore;
  logger: Logger;
  /** Stops accepting, lets requests in flight finish, then resolves. */
  shutdown(): Promise<void>;
}

/** Loads the policy set and starts listening. Throws PolicyLoadError on an invalid set. */
export async function startServer(config: Config, logger: Logger = createLogger(config.logLevel)): Promise<RunningServer> {
  const metrics = createMetrics();
  const store = new PolicyStore();
  const result = loadPolicyDir(config.policyDir);
  if (!result.ok) {
    metrics.reloads.inc({ result: 'failure' });
    throw new PolicyLoadError(result.problems);
  }
  store.replace(result.bundle, result.warnings);
  metrics.reloads.inc({ result: 'success' });
  metrics.policiesLoaded.set(result.bundle.policies.length);
  metrics.bundleInfo.set({ revision: result.bundle.revision }, 1);
  for (const w of result.warnings) logger.warn('policy warning', { problem: formatProblem(w) });
  if (config.secrets.length === 0) logger.warn(UNSIGNED_WARNING);

  let shuttingDown = false;
  const app = createApp({ store, secrets: config.secrets, logger, metrics, bodyLimit: config.bodyLimit, isShuttingDown: () => shuttingDown });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
    s.once('error', reject);
  });
  logger.info('listening', { host: config.host, port: addressPort(server), policyDir: config.policyDir, revision: result.bundle.revision, policies: result.bundle.policies.length, signaturesEnforced: config.secrets.length > 0 });

  const shutdown = () => new Promise<void>((resolve) => {
    shuttingDown = true;
    const force = setTimeout(() => server.closeAllConnections(), config.shutdownTimeoutMs);
    force.unref();
    server.close(() => { clearTimeout(force); resolve(); });
    server.closeIdleConnections();
  });
  return { server, store, logger, shutdown };
}

export function addressPort(server: Server): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}
