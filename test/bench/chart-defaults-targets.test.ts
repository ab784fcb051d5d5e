import type { ChartDefaultsFigures } from '../../bench/chart-defaults-stage';
import { checkChartDefaultsTargets } from '../../bench/chart-defaults-targets';

// Issue 48 item 3: the largest generated set with the chart's defaults starts and reloads in under
// 1 s each and peaks under 60% of the chart's limit, read in a cgroup of that limit.
const figures = (change: Partial<ChartDefaultsFigures> = {}): ChartDefaultsFigures => ({
  policies: 10_000,
  limitMb: 256,
  cgroup: 'v1',
  startupMs: 900,
  reloadMs: 950,
  peakMb: 150,
  peakReadyMb: 120,
  peakReloadedMb: 140,
  requestsPerSecond: 1000,
  p99Ms: 20,
  unexpected: 0,
  oomKills: 0,
  ...change,
});
const verdicts = (c: ChartDefaultsFigures) => checkChartDefaultsTargets(c).map((l) => [l.name, l.pass]);

test('met: every line passes', () => {
  expect(verdicts(figures())).toEqual([
    ["10,000 policies with the chart's defaults: every answer as expected, nothing OOM-killed", true],
    ['10,000 policies start (loaded, ready) < 1 s', true],
    ['10,000 policies reload < 1 s', true],
    ["10,000 policies under load with the chart's defaults: peak memory < 60% of the chart's limit", true],
  ]);
});

test('each figure past its bound fails its line; 60% of 256 MB is 153.6 MB', () => {
  expect(verdicts(figures({ startupMs: 1000, reloadMs: 1200, peakMb: 153.6 })).map(([, pass]) => pass)).toEqual([
    true,
    false,
    false,
    false,
  ]);
});

test('a peak not read in a cgroup, or a stage that ended early, is not met', () => {
  expect(checkChartDefaultsTargets(figures({ cgroup: { skipped: 'no cgroup here' } }))[3]).toMatchObject({
    pass: false,
    detail: expect.stringContaining('not in a cgroup (no cgroup here)'),
  });
  const ended = checkChartDefaultsTargets(figures({ failure: 'fetch failed; 1 OOM kills', oomKills: 1 }));
  expect(ended[0]).toMatchObject({ pass: false, correctness: true, detail: 'fetch failed; 1 OOM kills' });
  expect(ended[3].pass).toBe(false);
});
