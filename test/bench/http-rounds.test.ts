import { combineRounds } from '../../bench/http-rounds';
import { checkTargets } from '../../bench/targets';
import { formatReport } from '../../bench/report';
import type { MeasuredTarget } from '../../bench/figures';
import { benchResults } from './bench-results';

const measured = (
  name: string,
  kind: MeasuredTarget['kind'],
  change: Partial<MeasuredTarget> = {},
): MeasuredTarget => ({
  name,
  kind,
  policies: kind === 'floor' ? 0 : 10000,
  startupMs: 100,
  rssMb: 80,
  peakRssMb: 90,
  errorDecisions: 0,
  requestsPerSecond: 1000,
  p50Ms: 1,
  p99Ms: 4,
  requests: 10000,
  cpuMicrosPerRequest: 100,
  coreUsePercent: 100,
  stealPercent: 0,
  unexpected: 0,
  status5xx: 0,
  errors: 0,
  statuses: { 200: 10000 },
  perPayload: [6000, 4000],
  ...change,
});

/** One round: the floor at `base` requests a second, 10,000 policies at `target`. */
const round = (base: number, target: number, change: Partial<MeasuredTarget> = {}) => [
  measured('floor', 'floor', { requestsPerSecond: base }),
  measured('10,000 generated', 'generated', { requestsPerSecond: target, ...change }),
];

describe('combineRounds: the HTTP stage over its rounds', () => {
  test("a ratio is the median of the rounds' ratios, each taken within its round", () => {
    // Per round 0.76, 0.75, 0.65: the median is 0.75. The ratio of the medians would be 760 / 1000 = 0.76.
    const [, target] = combineRounds([round(1000, 760), round(1600, 1200), round(800, 520)]);
    expect(target.throughputRatios).toEqual([0.76, 0.75, 0.65]);
    expect(target.throughputRatio).toBeCloseTo(0.75, 10);
    expect(target.requestsPerSecond).toBe(760);
  });

  test('one slow floor round no longer decides the throughput line on its own', () => {
    // The middle round's floor ran fast (the host was idle for it alone): 0.65 in that round.
    const rounds = [round(1000, 780), round(1400, 910), round(1000, 790)];
    const lines = checkTargets(combineRounds(rounds), []);
    const throughput = lines.find((l) => l.name.startsWith('throughput with 10000 policies'));
    expect(throughput).toMatchObject({ pass: true, detail: '0.78x, the median of 3 rounds (0.78x, 0.65x, 0.79x)' });
    // Measured once, in that round alone, the line fails.
    const once = checkTargets(combineRounds([round(1400, 910)]), []);
    expect(once.find((l) => l.name.startsWith('throughput with 10000 policies'))?.pass).toBe(false);
  });

  test("the p99 line gives the median of the rounds' ratios and each round's", () => {
    const rounds = [
      round(1000, 800, { p99Ms: 2 }),
      [measured('floor', 'floor', { p99Ms: 2 }), measured('10,000 generated', 'generated', { p99Ms: 4 })],
      round(1000, 800, { p99Ms: 3 }),
    ];
    const line = checkTargets(combineRounds(rounds), []).find((l) => l.name.startsWith('p99 latency, 10,000'));
    expect(line).toMatchObject({
      pass: true,
      detail: '0.75x, the median of 3 rounds (0.50x, 2.00x, 0.75x); p99 3 ms, the median',
    });
  });

  test('with an even number of rounds the median is the mean of the middle two', () => {
    const [, target] = combineRounds([round(1000, 700), round(1000, 800), round(1000, 900), round(1000, 600)]);
    expect(target.throughputRatio).toBeCloseTo(0.75, 10);
  });

  test('p99 over the floor is the median of the rounds, and a floor p99 under 1 ms counts as 1 ms', () => {
    const rounds = [
      [measured('floor', 'floor', { p99Ms: 0 }), measured('t', 'generated', { p99Ms: 3 })],
      [measured('floor', 'floor', { p99Ms: 0 }), measured('t', 'generated', { p99Ms: 2 })],
      [measured('floor', 'floor', { p99Ms: 4 }), measured('t', 'generated', { p99Ms: 2 })],
    ];
    const [, target] = combineRounds(rounds);
    expect(target.p99Ratios).toEqual([3, 2, 0.5]);
    expect(target.p99Ratio).toBe(2);
  });

  test("p99 over the floor is the median of the rounds' ratios, not the ratio of the medians", () => {
    const rounds = [
      [measured('floor', 'floor', { p99Ms: 2 }), measured('t', 'generated', { p99Ms: 4 })],
      [measured('floor', 'floor', { p99Ms: 8 }), measured('t', 'generated', { p99Ms: 4 })],
      [measured('floor', 'floor', { p99Ms: 4 }), measured('t', 'generated', { p99Ms: 5 })],
    ];
    // Per round 2, 0.5 and 1.25: the median is 1.25. The medians' ratio would be 4 / 4 = 1.
    expect(combineRounds(rounds)[1].p99Ratio).toBe(1.25);
  });

  test('a wrong answer, a 5xx or an error decision in any round reaches the correctness line', () => {
    const rounds = [round(1000, 800), round(1000, 800, { unexpected: 2, status5xx: 1, errorDecisions: 1 })];
    const [, target] = combineRounds(rounds);
    expect(target).toMatchObject({ unexpected: 2, status5xx: 1, errorDecisions: 1, requests: 20000 });
    expect(target.perPayload).toEqual([12000, 8000]);
    const line = checkTargets([combineRounds(rounds)[0], target], []).find((l) =>
      l.name.startsWith('10,000 generated: every answer'),
    );
    expect(line?.pass).toBe(false);
  });

  test('a round in which a target gave no answer fails its correctness line, whatever the others gave', () => {
    const rounds = [round(1000, 800), round(1000, 800, { requests: 0, statuses: {}, perPayload: [0, 0] })];
    const [base, target] = combineRounds(rounds);
    expect(target).toMatchObject({ roundsWithoutAnswers: 1, requests: 10000 });
    const line = checkTargets([base, target], []).find((l) => l.name.startsWith('10,000 generated: every answer'));
    expect(line).toMatchObject({ pass: false });
    expect(line?.detail).toContain('1 round(s) without an answer');
    expect(checkTargets(combineRounds([round(1000, 800)]), [])[1].pass).toBe(true);
  });

  test('ratios are taken to the floor wherever it stands in the round', () => {
    const rounds = [
      [measured('bundled', 'bundled', { requestsPerSecond: 1200 }), measured('floor', 'floor')],
      [
        measured('bundled', 'bundled', { requestsPerSecond: 900 }),
        measured('floor', 'floor', { requestsPerSecond: 500 }),
      ],
      [measured('bundled', 'bundled', { requestsPerSecond: 1100 }), measured('floor', 'floor')],
    ];
    expect(combineRounds(rounds)[0].throughputRatios).toEqual([1.2, 1.8, 1.1]);
  });

  test('the other speed figures are the medians of the rounds', () => {
    const rounds = [
      round(1000, 800, { p50Ms: 1, cpuMicrosPerRequest: 100, coreUsePercent: 90, startupMs: 500 }),
      round(1000, 800, { p50Ms: 9, cpuMicrosPerRequest: 400, coreUsePercent: 101, startupMs: 4000 }),
      round(1000, 800, { p50Ms: 2, cpuMicrosPerRequest: 130, coreUsePercent: 99, startupMs: 600 }),
    ];
    expect(combineRounds(rounds)[1]).toMatchObject({
      p50Ms: 2,
      cpuMicrosPerRequest: 130,
      coreUsePercent: 99,
      startupMs: 600,
    });
  });

  test('statuses are added up over the rounds', () => {
    const rounds = [
      round(1000, 800, { statuses: { 200: 6, 403: 4 } }),
      round(1000, 800, { statuses: { 200: 5, 503: 1 } }),
    ];
    expect(combineRounds(rounds)[1].statuses).toEqual({ 200: 11, 403: 4, 503: 1 });
  });

  test('peak RSS and steal are the highest of any round; RSS after the run is the last round’s', () => {
    const rounds = [
      round(1000, 800, { peakRssMb: 210, rssMb: 200, stealPercent: 0.1 }),
      round(1000, 800, { peakRssMb: 290, rssMb: 205, stealPercent: 4 }),
      round(1000, 800, { peakRssMb: 220, rssMb: 190, stealPercent: undefined }),
    ];
    const [, target] = combineRounds(rounds);
    expect(target).toMatchObject({ peakRssMb: 290, rssMb: 190, stealPercent: 4 });
    const off = combineRounds([round(1000, 800, { stealPercent: undefined })]);
    expect(off[1].stealPercent).toBeUndefined();
  });

  test('one round gives the plain ratios (the quick mode)', () => {
    const [base, target] = combineRounds([round(1000, 700)]);
    expect(base.throughputRatio).toBe(1);
    expect(target).toMatchObject({ throughputRatio: 0.7, throughputRatios: [0.7], p99Ratio: 1 });
  });

  test('rounds that measured other targets, or no round at all, are refused', () => {
    expect(() => combineRounds([])).toThrow('no round');
    const other = [measured('floor', 'floor'), measured('1,000 generated', 'generated')];
    expect(() => combineRounds([round(1000, 800), other])).toThrow('round 2 measured other targets than round 1');
    const shorter = [measured('floor', 'floor')];
    expect(() => combineRounds([round(1000, 800), shorter])).toThrow('round 2 measured other targets than round 1');
    const longer = [...round(1000, 800), measured('1,000 generated', 'generated')];
    expect(() => combineRounds([round(1000, 800), longer])).toThrow('round 2 measured other targets than round 1');
  });

  test("the report names the rounds and prints each round's ratio", () => {
    const http = combineRounds([round(1000, 760), round(1600, 1200), round(800, 520)]);
    const results = benchResults({
      settings: { connections: 10, warmupSeconds: 3, seconds: 15, engineSeconds: 2, httpRounds: 3 },
      http,
    });
    const text = formatReport(results);
    expect(text).toContain('15 s per target, 3 rounds');
    expect(text).toContain("x floor and p99 x floor: the median of the rounds' ratios");
    expect(text).toContain('x floor per round: 10,000 generated 0.76, 0.75, 0.65');
  });
});
