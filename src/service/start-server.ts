import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Config } from './config';
import { createHttpServer } from '../http/create-http-server';
import { preflightIdHeader } from '../http/preflight-route';
import { gracefulCloser } from '../http/graceful-close';
import { createLogger, type Logger } from '../common/logger';
import type { ReloadOutcome } from '../policy/runtime/policy-reloader';
import type { LoadTrigger, PolicyStore } from '../policy/runtime/policy-store';
import { watchPolicyDir, type PolicyWatcher } from '../policy/runtime/policy-watcher';
import { buildService, type ServerHooks } from './build-service';

export type { ServerHooks } from './build-service';

export interface RunningServer {
  server: Server;
  store: PolicyStore;
  logger: Logger;
  /** Reloads POLICY_DIR now (SIGHUP); an invalid set is rejected and the one in use keeps serving. */
  reload(trigger: LoadTrigger): ReloadOutcome;
  /** Stops accepting, lets requests in flight finish, then resolves. */
  shutdown(): Promise<void>;
}

/** Builds the service (service/build-service.ts) and starts listening. Throws PolicyLoadError on an invalid set. */
export async function startServer(
  config: Config,
  logger: Logger = createLogger(config.logLevel),
  hooks: ServerHooks = {},
): Promise<RunningServer> {
  let shuttingDown = false;
  const service = await buildService(config, logger, { hooks, isShuttingDown: () => shuttingDown });
  const { store, reload } = service;
  const server = await new Promise<Server>((resolve, reject) => {
    const s = createHttpServer(service.app, { headersFor: preflightIdHeader(randomUUID) }).listen(
      config.port,
      config.host,
      () => resolve(s),
    );
    s.once('error', reject);
  });
  const closeGracefully = gracefulCloser(server);
  service.start();
  logger.info('listening', {
    host: config.host,
    port: addressPort(server),
    policyDir: config.policyDir,
    ...service.policies,
    signaturesEnforced: config.secrets.length > 0,
  });

  let watcher: PolicyWatcher | undefined;
  if (config.policyWatch) {
    watcher = watchPolicyDir(config.policyDir, () => reload('watch'), {
      debounceMs: config.policyReloadDebounceMs,
      onError: (err) => logger.error('policy directory watch failed; SIGHUP still reloads', { error: String(err) }),
      onRewatch: (why) =>
        logger.warn(`policy directory ${why === 'back' ? 'is back' : 'was replaced'}: watching it anew and reloading`, {
          policyDir: config.policyDir,
        }),
    });
    // Not awaited: the caller installs its SIGTERM handling as soon as the server listens. A change
    // made between the first load and the watch starting is caught by one more look once it is
    // ready, part of the start-up (found unchanged, it leaves /readyz's lastLoad the start-up's).
    void watcher.ready.then(() => {
      if (!shuttingDown) reload('startup');
    });
  }

  const shutdown = async () => {
    shuttingDown = true;
    // Everything, the decision archive's last upload included, is done by this time.
    const deadlineMs = Date.now() + config.shutdownTimeoutMs;
    service.stopSyncing();
    // Stop accepting at once; requests in flight finish while the watcher closes.
    const closed = closeGracefully(config.shutdownTimeoutMs);
    await watcher?.close();
    await closed;
    await service.close(deadlineMs);
  };
  return { server, store, logger, reload, shutdown };
}

export function addressPort(server: Server): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}
