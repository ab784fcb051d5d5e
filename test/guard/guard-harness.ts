import { Registry } from 'prom-client';
import type { ArchiveRecord } from '../../src/archive/archive-record';
import { decisionArchive, type DecisionArchive } from '../../src/archive/decision-archive';
import { createLogger } from '../../src/common/logger';
import { createMetrics } from '../../src/observability/metrics';
import { checkRecord } from '../../src/replay/check-record';
import { createPlatformClient } from '../../src/platform/platform-client';
import { createPlatformMetrics } from '../../src/platform/platform-metrics';
import { cancelExecution } from '../../src/platform/cancel-execution';
import { auditLogTo } from '../../src/observability/audit-log';
import type { AuditRecord } from '../../src/observability/audit-record';
import { createGuardMetrics } from '../../src/guard/guard-metrics';
import type { GuardStore } from '../../src/guard/guard-store';
import { MemoryGuardStore } from '../../src/guard/memory-guard-store';
import type { GuardStop } from '../../src/guard/guard-stop';
import { RunGuard, type RunGuardDeps } from '../../src/guard/run-guard';
import { PolicyStore } from '../../src/policy/runtime/policy-store';
import type { PolicyBundle } from '../../src/policy/core/compiled';
import type { Decision, PreflightPayload } from '../../src/policy/core/decision';
import { capturingLogger, type LogLine } from '../helpers/capturing-logger';
import type { FakeSteadybit, RecordedRequest } from '../helpers/fake-steadybit';
import { fakePlatformConfig } from '../helpers/fake-platform-config';

/** The Platform API settings of a guard against the fake: a short timeout, a generous budget. */
const platformConfig = (fake: FakeSteadybit) =>
  fakePlatformConfig(fake, { timeoutMs: 1000, rateBurst: 50, ratePerMinute: 600 });

/** A clock the test moves. */
export class TestClock {
  constructor(public at: Date) {}
  now = (): Date => this.at;
  set(iso: string): void {
    this.at = new Date(iso);
  }
}

/** What one guard did: the audit lines, the log lines, the stops its subscriber got, its registry. */
export interface GuardUnderTest {
  guard: RunGuard;
  runs: GuardStore;
  audit: AuditRecord[];
  /** The messages of the log lines, as they stand when read. */
  readonly logs: string[];
  /** The log lines with their level. */
  entries: LogLine[];
  stops: GuardStop[];
  registry: Registry;
  store: PolicyStore;
  /** Allows a run as the preflight route does: the guard keeps it. */
  allow(payload: PreflightPayload, decisionId?: string): void;
  metric(name: string, labels?: Record<string, string>): Promise<number>;
}

/** A guard over `bundle` (no facts gathered unless `gather` says), cancelling through the fake unless `cancel: undefined`. */
export function guardUnderTest(
  bundle: PolicyBundle,
  clock: TestClock,
  opts: { fake?: FakeSteadybit; runs?: GuardStore; replica?: string } & Partial<RunGuardDeps> = {},
): GuardUnderTest {
  const registry = new Registry();
  const audit: AuditRecord[] = [];
  const { logger, lines: entries } = capturingLogger();
  const stops: GuardStop[] = [];
  const client =
    opts.fake &&
    createPlatformClient(platformConfig(opts.fake), { metrics: createPlatformMetrics(registry), random: () => 0 });
  const runs = opts.runs ?? new MemoryGuardStore(() => clock.now().getTime());
  const store = new PolicyStore(bundle);
  let ids = 0;
  const guard = new RunGuard({
    policies: store,
    runs,
    gather: async () => ({ ok: true, facts: {} }),
    cancel: client && ((id, withinMs) => cancelExecution(client, id, Date.now() + withinMs)),
    logger,
    metrics: createGuardMetrics(registry),
    audit: auditLogTo((line) => audit.push(JSON.parse(line) as AuditRecord), 'info', { kind: 'all' }),
    clock: clock.now,
    newId: () => `g-${++ids}`,
    replica: opts.replica ?? 'replica-a',
    intervalMs: 15000,
    leaseMs: 30000,
    executionTtlMs: 3600_000,
    onStop: (stop) => stops.push(stop),
    yieldTurn: async () => undefined,
    ...opts,
  });
  return {
    guard,
    runs,
    audit,
    get logs() {
      return entries.map((l) => l.message);
    },
    entries,
    stops,
    registry,
    store,
    allow(payload, decisionId = 'd-allowed') {
      guard.keep({ id: decisionId, allowed: true, revision: bundle.revision } as Decision, payload, clock.now());
    },
    async metric(name, labels = {}) {
      const found = (await registry.getSingleMetric(name)?.get())?.values.find((v) =>
        Object.entries(labels).every(([k, val]) => v.labels[k] === val),
      );
      return found?.value ?? 0;
    },
  };
}

/** A running execution the fake knows (cancel answers 202 for it), with the payload's id. */
export function runningOnFake(fake: FakeSteadybit, id: number): void {
  fake.runs.set(id, { id, state: 'RUNNING', started: '2026-01-05T08:00:00Z' });
}

/** The cancels the fake was asked for, of one execution or all. */
export function cancels(fake: FakeSteadybit, id?: number): RecordedRequest[] {
  return fake.requests.filter(
    (r) => /\/cancel$/.test(r.path) && (id === undefined || r.path === `/api/experiments/executions/${id}/cancel`),
  );
}

/** A decision archive writing into memory: `lines` holds every line it wrote. */
export function archiveInMemory(): { archive: DecisionArchive; lines: string[] } {
  const lines: string[] = [];
  const archive = decisionArchive({
    writer: {
      write: async (chunk) => {
        lines.push(...chunk.split('\n').filter(Boolean));
      },
      close: async () => undefined,
    },
    queueBytes: 1 << 20,
    maskAttributes: [],
    metrics: createMetrics({ defaultMetrics: false }),
    logger: createLogger('error', { silent: true }),
  });
  return { archive, lines };
}

/** An archived line read as replay reads it; a line replay would refuse fails the test with its message. */
export function checkedRecord(line: string): ArchiveRecord {
  const checked = checkRecord(JSON.parse(line));
  if (!checked.ok) throw new Error(checked.message);
  return checked.record;
}
