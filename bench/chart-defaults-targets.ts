import type { ChartDefaultsFigures } from './chart-defaults-stage';
import type { TargetLine } from './figures';

/**
 * Issue 48 item 3, on the largest generated set served with the chart's defaults: ready in under
 * 1 s, reloaded in under 1 s, and a peak under 60% of the chart's memory limit measured in a cgroup
 * of that limit (where none can be made, the line says so and fails: the RSS is not that figure).
 */
export function checkChartDefaultsTargets(c: ChartDefaultsFigures): TargetLine[] {
  const policies = c.policies.toLocaleString('en-US');
  const inCgroup = typeof c.cgroup === 'string';
  const where = inCgroup
    ? `in a cgroup ${c.cgroup} limited to ${c.limitMb} MB`
    : `not in a cgroup (${(c.cgroup as { skipped: string }).skipped}): RSS high-water mark`;
  return [
    {
      name: `${policies} policies with the chart's defaults: every answer as expected, nothing OOM-killed`,
      pass: c.failure === undefined && c.unexpected === 0 && c.oomKills === 0,
      detail: c.failure ?? `${c.unexpected} unexpected answers, 5xx or errors; ${c.oomKills} OOM kills`,
      correctness: true,
    },
    {
      name: `${policies} policies start (loaded, ready) < 1 s`,
      pass: c.startupMs < 1000,
      detail: `${c.startupMs} ms from spawn until /readyz answered`,
      correctness: false,
    },
    {
      name: `${policies} policies reload < 1 s`,
      pass: c.reloadMs < 1000,
      detail: `${c.reloadMs} ms from SIGHUP (one file changed) until the reload was counted`,
      correctness: false,
    },
    {
      name: `${policies} policies under load with the chart's defaults: peak memory < 60% of the chart's limit`,
      pass: c.failure === undefined && inCgroup && c.peakMb < 0.6 * c.limitMb,
      detail: `${c.peakMb.toFixed(0)} MB = ${((100 * c.peakMb) / c.limitMb).toFixed(0)}% of ${c.limitMb} MB, ${where}; ${Math.round(c.requestsPerSecond)} req/s, p99 ${c.p99Ms} ms`,
      correctness: false,
    },
  ];
}
