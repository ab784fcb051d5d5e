import { constants } from 'node:os';

/** The signals an operator stops a command with: Ctrl-C, and what `kill` and Kubernetes send. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type StopSignal = (typeof STOP_SIGNALS)[number];

export interface Interruption {
  /** Aborted at the first SIGINT or SIGTERM. */
  readonly signal: AbortSignal;
  /** The signal that interrupted the command, once one did. */
  readonly by: () => StopSignal | undefined;
  /** The exit code of a process stopped by that signal (128 + its number: 130 for SIGINT). */
  readonly exitCode: () => number;
  /** Stops listening: the signals do what they did before. */
  readonly dispose: () => void;
}

/**
 * Listens for SIGINT and SIGTERM while a command changes something outside this process and must
 * undo it when stopped halfway (connect puts the webhooks back). The first signal aborts `signal`,
 * and the command undoes and exits; a second one exits at once, as the signal alone would have.
 */
export function listenForInterruption(proc: NodeJS.Process = process): Interruption {
  const controller = new AbortController();
  let by: StopSignal | undefined;
  const codeOf = (signal: StopSignal) => 128 + constants.signals[signal];
  const handlers = STOP_SIGNALS.map((signal) => {
    const handler = () => {
      if (by !== undefined) proc.exit(codeOf(signal));
      by = signal;
      controller.abort(new Error(`interrupted by ${signal}`));
    };
    proc.on(signal, handler);
    return [signal, handler] as const;
  });
  return {
    signal: controller.signal,
    by: () => by,
    exitCode: () => (by === undefined ? 0 : codeOf(by)),
    dispose: () => {
      for (const [signal, handler] of handlers) proc.off(signal, handler);
    },
  };
}
