import { Writable } from 'node:stream';
import winston from 'winston';
import type { Logger } from '../../src/common/logger';

/** One line a capturing logger wrote, parsed back from its JSON. */
export interface LogLine {
  level: string;
  message: string;
  [field: string]: unknown;
}

/**
 * A real winston logger writing JSON lines, as the service does, into `lines` (parsed back) for the
 * test to read. `lines` fills as the code under test logs.
 */
export function capturingLogger(level = 'info'): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as LogLine);
      done();
    },
  });
  const logger = winston.createLogger({
    level,
    format: winston.format.json(),
    transports: [new winston.transports.Stream({ stream })],
  });
  return { logger, lines };
}
