import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import winston from 'winston';
import { MemoryGuardStore } from '../src/guard/memory-guard-store';
import { RunsInProgress } from '../src/guard/runs-in-progress';
import type { PreflightPayload, Target } from '../src/payload/types';
import type { PolicyBundle } from '../src/policy/core/compiled';
import { decide } from '../src/policy/engine/decide';
import { factGatherer } from '../src/policy/engine/fact-gatherer';
import { loadPolicyDir } from '../src/policy/loading/load-policy-dir';
import { MemoryStateStore } from '../src/state/memory-state-store';
import { stateFactSource } from '../src/state/state-fact-source';
import { overlapSettler, type SettleOverlap } from '../src/guard/settle-overlap';
import type { Facts } from '../src/policy/facts/facts';

export interface OverlapFigures {
  runs: number;
  targetsPerRun: number;
  /** A preflight (facts gathered, then decided) on the bundled policies alone, µs: the median of the rounds. */
  withoutMicros: number;
  /** The same preflight with a noOverlap policy added and `runs` runs in progress, settled (decided again under the lock, kept), µs. */
  withMicros: number;
  /** with - without, ms: what the overlap check adds to a preflight. */
  addedMs: number;
  /** The same, the run overlapping one run in progress (denied, the message built), ms. */
  addedDeniedMs: number;
  /** The first preflight after the runs were kept: it reads and indexes every payload once, ms. */
  firstIndexMs: number;
  rounds: number;
}

const CONTAINER = 'com.steadybit.extension_container.container';
const NO_OVERLAP = `kind: Policy
name: no-overlap
rules:
  - noOverlap: { by: [host.hostname, k8s.node.name, k8s.zone, k8s.deployment] }
`;

/** A run of `targets` containers, each with the attributes the rule reads; `host` names each one's host. */
function runOf(id: number, targets: number, host: (j: number) => string): PreflightPayload {
  const targetExecutions: Target[] = Array.from({ length: targets }, (_, j) => ({
    type: CONTAINER,
    name: `run-${id}-container-${j}`,
    attributes: [
      { key: 'host.hostname', value: host(j) },
      { key: 'k8s.node.name', value: `${host(j)}.internal` },
      { key: 'k8s.zone', value: `zone-of-run-${id}` },
      { key: 'k8s.deployment', value: `deployment-${id}-${j % 10}` },
      { key: 'k8s.namespace', value: 'shop' },
    ],
  }));
  return {
    event: 'experiment.execution.preflight',
    execution: {
      id,
      experimentKey: `BENCH-${id}`,
      teamKey: `TEAM${id % 7}`,
      environment: 'staging',
      steps: [
        {
          actionId: 'com.steadybit.extension_container.stress_cpu',
          actionKind: 'ATTACK',
          parameters: { duration: '5m', cpuLoad: 60 },
          radius: { targetType: CONTAINER, percentage: 20 },
          targetExecutions,
          totalTargetCount: targets,
        },
      ],
    },
  } as PreflightPayload;
}

/**
 * Mean µs of `n` preflights: facts gathered through the service's state source, decided, and (a set
 * with noOverlap rules) settled as the route settles them: decided again under the overlap lock and
 * kept (settle-overlap.ts); the kept run is forgotten again, so every preflight meets the same runs.
 */
async function timePreflights(
  bundle: PolicyBundle,
  gather: ReturnType<typeof factGatherer>,
  payload: PreflightPayload,
  now: Date,
  n: number,
  settle?: { overlap: SettleOverlap; store: MemoryGuardStore },
): Promise<number> {
  const started = process.hrtime.bigint();
  const redecide = (facts: Facts) => decide(bundle, payload, facts, now, { decisionId: 'bench' });
  for (let i = 0; i < n; i++) {
    const gathered = await gather(bundle, payload, now);
    if (!gathered.ok) throw new Error(`bench: facts not gathered: ${gathered.unavailable.message}`);
    const first = { decision: redecide(gathered.facts), facts: gathered.facts };
    if (!settle) continue;
    const settled = await settle.overlap(first, bundle, payload, now, redecide, async (d) => d);
    if (settled.decision.allowed) await settle.store.forget(String(payload.execution.id));
  }
  return Number(process.hrtime.bigint() - started) / 1000 / n;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * What a noOverlap rule adds to a preflight of a 100-target run (docs/guard.md): the bundled
 * policies alone, against the same with a noOverlap policy (four `by` keys) and `runs` runs of
 * `targetsPerRun` targets in progress, in this process with the in-memory stores (the service's
 * state fact source, factGatherer and decide). The two are timed in alternating batches; each
 * figure is the median of the rounds.
 */
export async function overlapStage(
  policyDir: string,
  work: string,
  opts: { runs: number; targetsPerRun: number; rounds: number; batch: number },
): Promise<OverlapFigures> {
  const now = new Date('2026-01-05T10:00:00Z');
  const withDir = join(work, 'overlap-policies');
  mkdirSync(withDir, { recursive: true });
  cpSync(policyDir, withDir, { recursive: true });
  writeFileSync(join(withDir, 'zz-no-overlap.yaml'), NO_OVERLAP);
  const load = (dir: string) => {
    const loaded = loadPolicyDir(dir, now);
    if (!loaded.ok) throw new Error(`bench: ${dir} does not load: ${loaded.problems[0]?.message}`);
    return loaded.bundle;
  };
  const without = load(policyDir);
  const withRule = load(withDir);
  const guardRuns = new MemoryGuardStore(() => now.getTime());
  for (let i = 1; i <= opts.runs; i++) {
    await guardRuns.keep(
      {
        executionId: String(i),
        decisionId: `d-${i}`,
        allowedAt: now.toISOString(),
        revision: withRule.revision,
        payload: runOf(i, opts.targetsPerRun, (j) => `host-${(i * opts.targetsPerRun + j) % 20_000}`),
      },
      now.getTime() + 3_600_000,
      now.getTime(),
    );
  }
  const inProgress = new RunsInProgress(guardRuns);
  const settle = {
    overlap: overlapSettler({ store: guardRuns, inProgress, executionTtlMs: 3_600_000 }),
    store: guardRuns,
  };
  const gather = factGatherer([
    stateFactSource({
      store: new MemoryStateStore({ executionTtlMs: 3_600_000, eventToleranceMs: 900_000 }),
      onUnavailable: 'deny',
      logger: winston.createLogger({ silent: true }),
      inProgress,
    }),
  ]);
  // Hosts no run in progress has: allowed by the rule. The second run shares one host with run 1.
  const free = runOf(opts.runs + 1, opts.targetsPerRun, (j) => `free-host-${j}`);
  const overlapping = runOf(opts.runs + 2, opts.targetsPerRun, (j) =>
    j === 0 ? `host-${opts.targetsPerRun % 20_000}` : `free-host-${j}`,
  );
  const firstStarted = process.hrtime.bigint();
  await gather(withRule, free, now);
  const firstIndexMs = Number(process.hrtime.bigint() - firstStarted) / 1e6;
  const gathered = await gather(withRule, overlapping, now);
  const check = gathered.ok ? decide(withRule, overlapping, gathered.facts, now, { decisionId: 'bench' }) : undefined;
  if (check?.results.find((r) => r.policy === 'no-overlap')?.result !== 'deny')
    throw new Error(`bench: the overlapping run was not denied by no-overlap: ${check?.message ?? 'no facts'}`);
  // Warm-up, then alternating batches.
  await timePreflights(without, gather, free, now, opts.batch);
  await timePreflights(withRule, gather, free, now, opts.batch, settle);
  const a: number[] = [];
  const b: number[] = [];
  const c: number[] = [];
  for (let r = 0; r < opts.rounds; r++) {
    a.push(await timePreflights(without, gather, free, now, opts.batch));
    b.push(await timePreflights(withRule, gather, free, now, opts.batch, settle));
    c.push(await timePreflights(withRule, gather, overlapping, now, opts.batch, settle));
  }
  const withoutMicros = median(a);
  const withMicros = median(b);
  return {
    runs: opts.runs,
    targetsPerRun: opts.targetsPerRun,
    withoutMicros,
    withMicros,
    addedMs: (withMicros - withoutMicros) / 1000,
    addedDeniedMs: (median(c) - withoutMicros) / 1000,
    firstIndexMs,
    rounds: opts.rounds,
  };
}
