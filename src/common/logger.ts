import winston from 'winston';

export type Logger = winston.Logger;

/** The one timestamp field of every log line, service and audit alike: `time`, ISO 8601 UTC (docs/audit-log.md). */
export const TIME_FIELD = 'time';
const stampTime = winston.format((info) => {
  info[TIME_FIELD] = new Date().toISOString();
  return info;
});

/** JSON lines on stdout. Secrets are never passed to the logger. */
export function createLogger(level = 'info', opts: { silent?: boolean } = {}): Logger {
  return winston.createLogger({
    level,
    silent: opts.silent,
    format: winston.format.combine(stampTime(), winston.format.json()),
    defaultMeta: { service: 'preflight-gate' },
    transports: [new winston.transports.Console()],
  });
}
