import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Registry } from 'prom-client';
import winston from 'winston';
import type { PolicyBundle } from '../src/policy/core/compiled';
import type { PreflightPayload } from '../src/policy/core/decision';
import { disabledAuditLog } from '../src/observability/audit-log';
import { createGuardMetrics } from '../src/guard/guard-metrics';
import { MemoryGuardStore } from '../src/guard/memory-guard-store';
import type { GuardStore } from '../src/guard/guard-store';
import { RunGuard } from '../src/guard/run-guard';
import { quietFacts } from '../src/policy/facts/quiet-facts';

export interface GuardFigures {
  /** The policy set, every policy of it made to guard runs (the worst case: docs/guard.md). */
  set: string;
  /** Where the runs are kept: this process (one replica) or a real redis-server (several replicas). */
  store?: 'memory' | 'Redis';
  policies: number;
  runs: number;
  /** CPU time of one tick (reading the runs, judging each again, reporting), ms; the mean of the ticks measured. */
  cpuMsPerTick: number;
  /** The same per run, µs. */
  cpuMicrosPerRun: number;
  /** The longest the event loop was held during the ticks, ms: the most a preflight could wait behind the guard. */
  maxLoopDelayMs: number;
}

export interface GuardStoreKind {
  name: 'memory' | 'Redis';
  /** A fresh, empty store whose clock stands at `nowMs`. */
  open: (nowMs: number) => Promise<GuardStore>;
}

export const MEMORY_GUARD_STORE: GuardStoreKind = {
  name: 'memory',
  open: async (nowMs) => new MemoryGuardStore(() => nowMs),
};

/** The set with every policy guarding runs (`whileRunning: {onCannotJudge: report}`), for the worst case. */
function everyPolicyGuards(bundle: PolicyBundle): PolicyBundle {
  return {
    ...bundle,
    policies: bundle.policies.map((p) => ({ ...p, whileRunning: { onCannotJudge: 'report' as const } })),
  };
}

/**
 * CPU per tick of the guard over `runs` runs in progress (the payload variants in turn) against a
 * set whose every policy guards them, with the facts a fresh service has (signal rules cannot
 * judge: reported once). Cancels are answered "already ended" (never sent): the runs stay watched.
 */
export async function guardStage(
  sets: ReadonlyArray<{ name: string; bundle: PolicyBundle }>,
  payloads: readonly PreflightPayload[],
  runs: number,
  ticks: number,
  stores: ReadonlyArray<GuardStoreKind> = [MEMORY_GUARD_STORE],
): Promise<GuardFigures[]> {
  const out: GuardFigures[] = [];
  for (const kind of stores)
    for (const set of sets) out.push(await guardTicks(set, kind.name, kind.open, payloads, runs, ticks));
  return out;
}

async function guardTicks(
  set: { name: string; bundle: PolicyBundle },
  storeName: GuardStoreKind['name'],
  open: GuardStoreKind['open'],
  payloads: readonly PreflightPayload[],
  runs: number,
  ticks: number,
): Promise<GuardFigures> {
  const bundle = everyPolicyGuards(set.bundle);
  const now = new Date('2026-01-05T10:00:00Z');
  const store = await open(now.getTime());
  for (let i = 0; i < runs; i++) {
    const payload = {
      ...payloads[i % payloads.length],
      execution: { ...payloads[i % payloads.length].execution, id: i + 1 },
    };
    await store.keep(
      {
        executionId: String(i + 1),
        decisionId: `d-${i}`,
        allowedAt: now.toISOString(),
        revision: bundle.revision,
        payload,
      },
      now.getTime() + 3600_000,
      now.getTime(),
    );
  }
  const guard = new RunGuard({
    policies: { current: () => bundle },
    runs: store,
    gather: async (b) => ({ ok: true, facts: quietFacts(b.needs) }),
    cancel: async () => ({ ok: false, failure: { outcome: 'server_error', message: 'bench: not sent' } }),
    logger: winston.createLogger({ silent: true }),
    metrics: createGuardMetrics(new Registry()),
    audit: disabledAuditLog,
    clock: () => now,
    newId: () => 'bench',
    replica: 'bench',
    intervalMs: 15_000,
    leaseMs: 0,
    executionTtlMs: 3600_000,
  });
  await guard.tick(); // warm-up: the guarded view is built, reports are said once
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const cpu = process.cpuUsage();
  for (let i = 0; i < ticks; i++) await guard.tick();
  const used = process.cpuUsage(cpu);
  delay.disable();
  const cpuMsPerTick = (used.user + used.system) / 1000 / ticks;
  return {
    set: set.name,
    store: storeName,
    policies: set.bundle.policies.length,
    runs,
    cpuMsPerTick,
    cpuMicrosPerRun: (cpuMsPerTick * 1000) / runs,
    maxLoopDelayMs: delay.max / 1e6,
  };
}
