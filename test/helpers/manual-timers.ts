import type { Timers } from '../../src/notify/timers';

interface Scheduled {
  id: number;
  at: number;
  fn: () => void;
}

/**
 * Timers and a clock that only move when the test says so: `advance(ms)` runs what falls due, in
 * order, letting promises settle between callbacks. `delays` records every wait asked for.
 */
export function manualTimers(startMs = Date.parse('2026-03-02T10:00:00Z')) {
  let now = startMs;
  let nextId = 1;
  const scheduled: Scheduled[] = [];
  const delays: number[] = [];
  const timers: Timers = {
    setTimeout(fn, ms) {
      delays.push(ms);
      const entry = { id: nextId++, at: now + Math.max(0, ms), fn };
      scheduled.push(entry);
      return entry.id;
    },
    clearTimeout(handle) {
      const i = scheduled.findIndex((s) => s.id === handle);
      if (i !== -1) scheduled.splice(i, 1);
    },
  };
  /** Lets pending promise callbacks and I/O run (the fakes answer over real sockets). */
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    timers,
    now: () => now,
    delays,
    pending: () => scheduled.length,
    async advance(ms: number) {
      const until = now + ms;
      await settle();
      for (;;) {
        scheduled.sort((a, b) => a.at - b.at || a.id - b.id);
        const next = scheduled[0];
        if (!next || next.at > until) break;
        scheduled.shift();
        now = Math.max(now, next.at);
        next.fn();
        await settle();
      }
      now = until;
      await settle();
    },
  };
}

/** Waits (in real time, briefly) until the condition holds: for answers that travel over sockets. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 5000,
): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
