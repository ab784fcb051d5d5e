import type { ChartDefaultsFigures } from './chart-defaults-stage';
import type { GuardFigures } from './guard-stage';
import type { OverlapFigures } from './overlap-stage';
import type { ProveFigures } from './prove-stage';
import type { EngineFigures, LoadTimeFigures } from './engine-bench';
import type { LargeRunFigures } from './large-run-stage';
import type { LargeRunHttpFigures } from './large-run-http-stage';
import type { LoadFigures } from './load-run';
import type { ReplayFigures } from './replay-bench';

/** `floor`: a bare node:http receiver (bench/floor-app.ts) every ratio is taken against; no speed target applies to it. */
export type HttpTargetKind = 'floor' | 'bundled' | 'generated';

/** One target's figures from one run (one round of the HTTP stage), before any ratio to the floor. */
export interface MeasuredTarget extends LoadFigures {
  name: string;
  kind: HttpTargetKind;
  policies: number;
  startupMs: number;
  rssMb: number;
  peakRssMb: number;
  /** preflight_decisions_total{decision="error"} after the run (0 for the floor, which has none). */
  errorDecisions: number;
}

/** A target over the HTTP stage's rounds (bench/http-rounds.ts). */
export interface HttpTargetFigures extends MeasuredTarget {
  /** Requests a second over the floor's: the median of the rounds' ratios. */
  throughputRatio: number;
  /** Each round's throughput ratio, in the order measured. */
  throughputRatios: number[];
  /** Rounds in which the target gave no answer at all: each of them checked nothing. */
  roundsWithoutAnswers: number;
  /** p99 over the floor's: the median of the rounds' ratios. */
  p99Ratio: number;
  /** Each round's p99 ratio, in the order measured. */
  p99Ratios: number[];
}

export interface TargetLine {
  name: string;
  pass: boolean;
  detail: string;
  /** A correctness target fails the run in quick mode too; the others only in full mode. */
  correctness: boolean;
}

export interface BenchResults {
  mode: 'full' | 'quick';
  startedAt: string;
  machine: { cpus: number; cpuModel: string; node: string; memoryMb: number };
  settings: {
    connections: number;
    warmupSeconds: number;
    seconds: number;
    engineSeconds: number;
    /** Rounds of the HTTP stage: each measures the floor and every target in turn. */
    httpRounds: number;
  };
  ruleKinds: { usable: string[]; notes: string[] };
  payloads: Array<{ name: string; expected: Record<string, number> }>;
  http: HttpTargetFigures[];
  /** The HTTP stage's rounds as measured, each listing the targets in the order of `http`. */
  httpRounds: MeasuredTarget[][];
  engine: EngineFigures[];
  /** Runs of thousands of targets with every attribute, decided in-process (bench/large-run-stage.ts). */
  largeRuns?: LargeRunFigures[];
  /** The same big runs over HTTP, end to end, against the floor (bench/large-run-http-stage.ts). */
  largeRunHttp?: LargeRunHttpFigures;
  loadTimes: LoadTimeFigures[];
  /** `preflight-gate replay` of generated archives (docs/replay.md), largest last. */
  replay?: ReplayFigures[];
  /** The guard of runs in progress: CPU per tick over 1,000 runs (bench/guard-stage.ts, docs/guard.md). */
  guard?: GuardFigures[];
  /** What a noOverlap rule adds to a preflight with 1,000 runs in progress (bench/overlap-stage.ts, docs/guard.md). */
  overlap?: OverlapFigures;
  /** `preflight-gate diff` and `prove` as a pull request's check runs them (bench/prove-stage.ts, docs/prove.md). */
  prove?: ProveFigures;
  /** The largest generated set served with the chart's defaults in a memory cgroup of its limit (bench/chart-defaults-stage.ts). */
  chartDefaults?: ChartDefaultsFigures;
  targets: TargetLine[];
  passed: boolean;
  /**
   * The same bench on the Node.js that ran `npm run bench` when the image ships another (bench/main.ts):
   * its figures are shown beside; no target is judged on them.
   */
  beside?: BenchResults;
}
