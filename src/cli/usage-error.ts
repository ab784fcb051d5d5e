/** Exit codes of every command: documented in the README and in `preflight-gate --help`. */
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
