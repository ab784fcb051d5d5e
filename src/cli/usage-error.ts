import { ConfigError } from '../env-values';

/** Exit codes of every command: documented in docs/policy-workflow.md and in `preflight-gate --help`. */
export const EXIT = {
  /** Done: valid, every test passed, evaluated (and allowed, with --exit-code). */
  ok: 0,
  /** The answer is "no": policy errors, a failing test, a denial (with --exit-code). */
  failed: 1,
  /** The command could not run: unknown flag, missing or unreadable file, bad JSON. */
  usage: 2,
} as const;

/** Bad input to a command (a missing file, bad JSON, a flag without its value): exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Reads settings for a command: a bad variable is bad input to it (exit 2, the ConfigError's message). */
export function readSettings<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(err.message);
    throw err;
  }
}
