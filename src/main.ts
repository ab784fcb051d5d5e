import { ConfigError, loadConfig } from './service/config';
import { createLogger } from './common/logger';
import { PolicyLoadError } from './policy/compile/load-error';
import { LackingNeedError } from './service/check-needs';
import { startServer, type RunningServer } from './service/start-server';

/**
 * Runs the service until SIGTERM/SIGINT; SIGHUP reloads POLICY_DIR. What `npm start` and
 * `preflight-gate serve` run. Only entry points pass `process.env` in.
 */
export async function serve(env: NodeJS.ProcessEnv): Promise<RunningServer> {
  const config = loadConfig(env);
  const logger = createLogger(config.logLevel);
  const running = await startServer(config, logger);
  process.on('SIGHUP', () => {
    logger.info('SIGHUP: reloading the policy directory');
    running.reload('SIGHUP');
  });
  process.once('SIGTERM', () => {
    logger.info('SIGTERM: finishing requests in flight, then exiting');
    void running.shutdown().then(() => {
      logger.info('stopped');
      process.exit(0);
    });
  });
  process.once('SIGINT', () => void running.shutdown().then(() => process.exit(0)));
  return running;
}

/** A start-up failure: the message says what to fix; exit 1. */
export function exitOnStartupError(err: unknown): never {
  if (err instanceof ConfigError || err instanceof PolicyLoadError || err instanceof LackingNeedError) {
    process.stderr.write(`preflight-gate: ${err.message}\n`);
  } else {
    process.stderr.write(`preflight-gate: failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  }
  process.exit(1);
}

if (require.main === module) serve(process.env).catch(exitOnStartupError);
