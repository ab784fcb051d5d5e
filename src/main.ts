import { ConfigError, loadConfig } from './config';
import { createLogger } from './observability/logger';
import { PolicyLoadError } from './policy/load-error';
import { startServer } from './server';

/** The only place that reads process.env and starts listening. */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);
  const running = await startServer(config, logger);
  process.once('SIGTERM', () => {
    logger.info('SIGTERM: finishing requests in flight, then exiting');
    void running.shutdown().then(() => {
      logger.info('stopped');
      process.exit(0);
    });
  });
  process.once('SIGINT', () => void running.shutdown().then(() => process.exit(0)));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof PolicyLoadError) {
    process.stderr.write(`preflight-gate: ${err.message}\n`);
  } else {
    process.stderr.write(`preflight-gate: failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  }
  process.exit(1);
});
