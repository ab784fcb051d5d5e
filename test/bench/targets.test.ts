import {
  checkLargeRunHttpTargets,
  checkLargeRunTargets,
  checkReplayTargets,
  checkTargets,
  FLOOR_RATIO,
} from '../../bench/targets';
import type { LargeRunFigures } from '../../bench/large-run-stage';
import type { LargeRunHttpFigures } from '../../bench/large-run-http-stage';
import type { ReplayFigures } from '../../bench/replay-bench';
import { formatReport } from '../../bench/report';
import type { BenchResults, HttpTargetFigures } from '../../bench/figures';
import { benchResults } from './bench-results';
import type { EngineFigures } from '../../bench/engine-bench';

const http = (
  name: string,
  kind: HttpTargetFigures['kind'],
  policies: number,
  change: Partial<HttpTargetFigures> = {},
): HttpTargetFigures => ({
  name,
  kind,
  policies,
  startupMs: 100,
  rssMb: 80,
  peakRssMb: 90,
  errorDecisions: 0,
  throughputRatio: 1,
  throughputRatios: [1],
  roundsWithoutAnswers: 0,
  p99Ratio: 1,
  p99Ratios: [1],
  requestsPerSecond: 1000,
  p50Ms: 1,
  p99Ms: 2,
  requests: 10000,
  cpuMicrosPerRequest: 100,
  coreUsePercent: 100,
  stealPercent: 0.5,
  unexpected: 0,
  status5xx: 0,
  errors: 0,
  statuses: { 200: 10000 },
  perPayload: [10000],
  ...change,
});
const engine = (policies: number, microsPerDecision: number): EngineFigures => ({
  policies,
  microsPerDecision,
  decisionsPerSecond: 1e6 / microsPerDecision,
  visitedPerDecision: 5,
  fullScanMicrosPerDecision: microsPerDecision * policies,
});
/** A full run's results on a 2-core machine, with no targets unless `change` gives them. */
const report = (change: Partial<BenchResults>): BenchResults => benchResults({ engine: [engine(100, 10)], ...change });
const run = (change: Partial<HttpTargetFigures> = {}, at10k = 40) =>
  checkTargets(
    [
      http('floor', 'floor', 0),
      http('bundled policies', 'bundled', 10, { throughputRatio: 0.9 }),
      http('10,000 generated', 'generated', 10000, { throughputRatio: 0.75, ...change }),
    ],
    [engine(10, 5), engine(100, 10), engine(10000, at10k)],
  );
const failed = (lines: ReturnType<typeof run>) => lines.filter((l) => !l.pass).map((l) => l.name);

describe('benchmark targets', () => {
  test('figures inside every target pass', () => {
    expect(failed(run())).toEqual([]);
  });

  test.each<[string, Partial<HttpTargetFigures>, number, string[]]>([
    [
      'throughput under 0.67x with the largest set',
      { throughputRatio: 0.66 },
      40,
      ['throughput with 10000 policies >= 0.67x the floor'],
    ],
    ['p99 over 1.5x', { p99Ratio: 1.6 }, 40, ["p99 latency, 10,000 generated <= 1.5x the floor's"]],
    ['peak RSS of 300 MB', { peakRssMb: 300 }, 40, ['peak RSS with 10000 policies < 300 MB']],
    ['engine cost over 5x its cost at 100', {}, 51, ['engine cost per decision at 10000 policies <= 5x at 100']],
    [
      'one unexpected status',
      { unexpected: 1 },
      40,
      ['10,000 generated: every answer as expected, no 5xx, no error decision'],
    ],
    [
      'a 5xx',
      { status5xx: 1, unexpected: 1 },
      40,
      ['10,000 generated: every answer as expected, no 5xx, no error decision'],
    ],
    [
      'an error decision',
      { errorDecisions: 1 },
      40,
      ['10,000 generated: every answer as expected, no 5xx, no error decision'],
    ],
    [
      'no request answered at all (nothing unexpected, nothing checked)',
      { requests: 0, statuses: {}, perPayload: [0] },
      40,
      ['10,000 generated: every answer as expected, no 5xx, no error decision'],
    ],
  ])('%s fails its target, and only it', (_name, change, at10k, expected) => {
    expect(failed(run(change, at10k))).toEqual(expected);
  });

  test('the floor has no speed target, only a correctness one', () => {
    const lines = checkTargets([http('floor', 'floor', 0, { throughputRatio: 1, p99Ratio: 1 })], [engine(100, 10)]);
    expect(lines.map((l) => l.name)).toEqual(['floor: every answer as expected, no 5xx, no error decision']);
  });

  test('the bundled policies under 0.8x the floor fail their line, and only it', () => {
    const lines = checkTargets(
      [http('floor', 'floor', 0), http('bundled policies', 'bundled', 10, { throughputRatio: 0.79 })],
      [engine(100, 10)],
    );
    expect(failed(lines)).toEqual(['throughput with the bundled policies >= 0.8x the floor']);
  });

  test('only correctness targets are marked to fail a quick run', () => {
    const lines = run({ unexpected: 1, throughputRatio: 0.1 });
    expect(lines.filter((l) => !l.pass).map((l) => l.correctness)).toEqual([true, false]);
  });

  test('the report prints one PASS/FAIL line per target', () => {
    const targets = run({ throughputRatio: 0.5 });
    const lines = formatReport(report({ http: [http('floor', 'floor', 0)], targets, passed: false }))
      .split('\n')
      .filter((l) => /^(PASS|FAIL) /.test(l));
    expect(lines).toHaveLength(targets.length);
    expect(lines).toContain('FAIL  throughput with 10000 policies >= 0.67x the floor: 0.50x');
  });

  test('the HTTP table shows each target\'s core use and steal, "-" when steal is unknown', () => {
    const results = report({
      http: [
        http('floor', 'floor', 0, { coreUsePercent: 101.4, stealPercent: 2.25 }),
        http('10,000 generated', 'generated', 10000, { coreUsePercent: 87.2, stealPercent: undefined }),
      ],
    });
    const lines = formatReport(results).split('\n');
    const head = lines.find((l) => l.startsWith('target '))!.split(/\s{2,}/);
    const row = (name: string) => {
      const cells = lines.find((l) => l.startsWith(name))!.split(/\s{2,}/);
      return (col: string) => cells[head.indexOf(col)];
    };
    expect([row('floor')('core %'), row('floor')('steal %')]).toEqual(['101', '2.3']);
    expect([row('10,000 generated')('core %'), row('10,000 generated')('steal %')]).toEqual(['87', '-']);
  });
});

describe('replay targets (issue 24)', () => {
  const replayed = (records: number, change: Partial<ReplayFigures> = {}): ReplayFigures => ({
    records,
    policies: 1000,
    seconds: records / 12000,
    cpuSeconds: records / 13000,
    decisionsPerSecond: 12000,
    peakRssMb: 170,
    loadAverage: 1.2,
    cores: 2,
    unchanged: records,
    replayed: records,
    archiveMb: records / 150,
    ...change,
  });
  const failedReplay = (figures: ReplayFigures[]) =>
    checkReplayTargets(figures)
      .filter((l) => !l.pass)
      .map((l) => l.name);

  test.each<[string, ReplayFigures[], string[]]>([
    ['inside every target', [replayed(20_000), replayed(100_000)], []],
    [
      '100,000 decisions in 10 s',
      [replayed(20_000), replayed(100_000, { seconds: 10 })],
      ['replay of 100000 decisions against 1000 policies < 10 s'],
    ],
    [
      'memory grown 1.3x from 20,000 to 100,000',
      [replayed(20_000), replayed(100_000, { peakRssMb: 221 })],
      ['replay memory flat in the archive size (peak RSS at the largest archive <= 1.25x the smallest)'],
    ],
    [
      'one answer not reproduced',
      [replayed(20_000, { unchanged: 19_999 }), replayed(100_000)],
      ['replay of 20000 archived decisions reproduces every answer'],
    ],
  ])('%s', (_name, figures, names) => {
    expect(failedReplay(figures)).toEqual(names);
  });

  test('the time target names CPU time, peak RSS and the machine load it was measured under', () => {
    const line = checkReplayTargets([
      replayed(20_000),
      replayed(100_000, { seconds: 9.5, cpuSeconds: 8.2, decisionsPerSecond: 10526, loadAverage: 9.4 }),
    ]).find((l) => l.name.endsWith('< 10 s'));
    expect(line?.detail).toBe('9.5 s (CPU 8.2 s, peak RSS 170 MB), 10526 decisions/s; load average 9.4 on 2 cores');
  });
});

describe('big runs over HTTP (issue 48 item 2)', () => {
  const stage = (ratio: number): LargeRunHttpFigures => ({
    targets: 2000,
    bodyBytes: 2_000_000,
    connections: 4,
    http: [
      { ...http('floor', 'floor', 0, { cpuMicrosPerRequest: 3000, requestsPerSecond: 100 }), cpuRatio: 1 },
      {
        ...http('bundled policies', 'bundled', 10, {
          cpuMicrosPerRequest: 3000 / ratio,
          requestsPerSecond: 100 * ratio,
          throughputRatio: ratio,
        }),
        cpuRatio: 1 / ratio,
      },
    ],
  });
  const line = (ratio: number) =>
    checkLargeRunHttpTargets(stage(ratio)).find((l) => l.name.includes('bundled policies: throughput'));

  test("the service answers at least 0.67x the floor's big runs a second, and the line says how much", () => {
    expect(line(FLOOR_RATIO.largeRuns)).toMatchObject({
      pass: true,
      correctness: false,
      detail: "0.67x (67.0 req/s; CPU 4.5 ms per request = 1.49x the floor's)",
    });
    expect(line(0.66)?.pass).toBe(false);
  });

  test('the floor has no throughput line, only its correctness line', () => {
    const names = checkLargeRunHttpTargets(stage(0.5)).map((l) => l.name);
    expect(names).toEqual([
      '2000-target runs, floor: every answer as expected, no 5xx, no error decision',
      '2000-target runs, bundled policies: every answer as expected, no 5xx, no error decision',
      "2000-target runs, bundled policies: throughput >= 0.67x the floor's (read + HMAC + JSON.parse of the same body)",
    ]);
  });
});

describe('big runs decided in-process: linear in targets x policies', () => {
  /** One set's rows: [targets, ns per target and policy, plain read ns per target]. */
  const runs = (...rows: Array<[number, number, number]>): LargeRunFigures[] =>
    rows.map(([targets, nanosPerTargetPolicy, readNanosPerTarget]) => ({
      set: 'perGroup',
      policies: 3,
      targets,
      bodyBytes: targets * 1000,
      parseMicros: 1,
      floorParseMicros: 1,
      decideMicros: (nanosPerTargetPolicy * targets * 3) / 1000,
      visitedPerDecision: 3,
      nanosPerTargetPolicy,
      readNanosPerTarget,
    }));
  const linearity = (figures: LargeRunFigures[]) =>
    checkLargeRunTargets(figures).find((l) => l.name.startsWith('perGroup: decision cost linear'));

  test('a run in the cache is not the reference: the largest is compared with the smallest run read as dearly', () => {
    // 2,500 targets fit in the cache (read at half the cost): 5,000 is the reference.
    const line = linearity(runs([2500, 500, 130], [5000, 600, 300], [10000, 700, 260]));
    expect(line).toMatchObject({ pass: true });
    expect(line?.detail).toBe(
      '700.0 ns vs 600.0 ns at 5000 = 1.17x (plain read per target 2500: 130 ns, 5000: 300 ns, 10000: 260 ns)',
    );
  });

  test('with every run read alike, the smallest is the reference', () => {
    expect(linearity(runs([500, 100, 100], [1000, 125, 100]))?.detail).toMatch(
      /^125\.0 ns vs 100\.0 ns at 500 = 1\.25x/,
    );
  });

  test('more than 1.3x over the reference fails', () => {
    expect(linearity(runs([2500, 500, 130], [5000, 500, 300], [10000, 660, 260]))?.pass).toBe(false);
    expect(linearity(runs([500, 100, 100], [1000, 131, 100]))?.pass).toBe(false);
  });

  test('no smaller run read as dearly as the largest: the next smaller run is the reference, and the line says so', () => {
    const line = linearity(runs([2500, 400, 100], [5000, 500, 200], [10000, 600, 300]));
    expect(line).toMatchObject({ pass: true });
    expect(line?.detail).toBe(
      "600.0 ns vs 500.0 ns at 5000 = 1.20x (plain read per target 2500: 100 ns, 5000: 200 ns, 10000: 300 ns; no smaller run read within 1.25x of the largest's cost, so the next smaller one)",
    );
    expect(linearity(runs([2500, 400, 100], [5000, 450, 200], [10000, 600, 300]))?.pass).toBe(false);
  });
});
