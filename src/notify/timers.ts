/** Timers passed in, so tests move time on instead of waiting (test/helpers/manual-timers.ts). */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The process's timers, unref'd: a notification waiting to be sent never keeps the process up. */
export const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export const sleep = (timers: Timers, ms: number): Promise<void> =>
  new Promise((resolve) => {
    timers.setTimeout(resolve, ms);
  });

/** The process's timers as they are: a command that waits to retry must keep the process up meanwhile. */
export const keptTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
