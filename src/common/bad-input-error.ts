import { ConfigError } from './env-values';

/**
 * Bad input to an operation (a missing file, bad JSON, a flag without its value, an archive that
 * cannot be read): the message says what to fix. Thrown by replay, approvals, prove and the CLI's
 * commands alike; the CLI answers it with exit 2 (cli/exit-codes.ts).
 */
export class BadInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BadInputError';
  }
}

/** Reads settings for an operation: a bad variable is bad input to it (the ConfigError's message). */
export function readSettings<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof ConfigError) throw new BadInputError(err.message);
    throw err;
  }
}
