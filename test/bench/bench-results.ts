import type { BenchResults } from '../../bench/figures';

/** A full run's results on a 2-core machine, with nothing measured unless `change` gives it. */
export const benchResults = (change: Partial<BenchResults> = {}): BenchResults => ({
  mode: 'full',
  startedAt: '2026-11-22T03:00:00Z',
  machine: { cpus: 2, cpuModel: 'cpu', node: 'v20', memoryMb: 1024 },
  settings: { connections: 10, warmupSeconds: 1, seconds: 2, engineSeconds: 1, httpRounds: 1 },
  ruleKinds: { usable: ['environments'], notes: [] },
  payloads: [],
  http: [],
  httpRounds: [],
  engine: [],
  loadTimes: [],
  targets: [],
  passed: true,
  ...change,
});
