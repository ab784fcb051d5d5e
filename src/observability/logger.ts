import winston from 'winston';

export type Logger = winston.Logger;

/** JSON lines on stdout. Secrets are never passed to the logger. */
export function createLogger(level = 'info', opts: { silent?: boolean } = {}): Logger {
  return winston.createLogger({
    level,
    silent: opts.silent,
    format: winston.format.combine(winston.format.timestamp(), winston.format.json()),
    defaultMeta: { service: 'preflight-gate' },
    transports: [new winston.transports.Console()],
  });
}
