import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { memoryCgroup } from '../test/helpers/memory-cgroup';
import type { PolicyBundle } from '../src/policy/core/compiled';
import { SECRET } from './http-stage';
import { runLoad, type LoadSettings } from './load-run';
import { repoRoot } from './paths';
import { expectedStatuses, type PayloadVariant } from './payload-variants';
import { startTarget, type TargetProcess } from './target-process';

/** One policy set served as the chart serves it by default, inside a memory cgroup of the chart's limit. */
export interface ChartDefaultsFigures {
  policies: number;
  /** helm/values.yaml resources.limits.memory, MB. */
  limitMb: number;
  /** cgroup v1 or v2; `skipped` (with why) where no memory cgroup can be made here. */
  cgroup: 'v1' | 'v2' | { skipped: string };
  /** From spawn until /readyz answers: the policies loaded, the service ready. */
  startupMs: number;
  /**
   * SIGHUP after one file changed, until the reload is counted (preflight_policy_reloads_total{result="success"});
   * with the chart's watch on, the watch's reload of the same change counts as well, whichever comes first.
   */
  reloadMs: number;
  /** The cgroup's peak usage over start, reload and load (the figure the kubelet reads), MB. */
  peakMb: number;
  /** The same peak as it stood once ready and once reloaded (before the load): where the peak is reached. */
  peakReadyMb: number;
  peakReloadedMb: number;
  requestsPerSecond: number;
  p99Ms: number;
  /** Answers not as expected, 5xx, errors: any makes the figures not count. */
  unexpected: number;
  /** Processes the kernel OOM-killed in the cgroup (0 without one). */
  oomKills: number;
  /** What ended the stage early (the service died, stopped answering): the figures not reached are NaN. */
  failure?: string;
}

/** The service's environment and memory limit as helm/values.yaml sets them (also bench/start-reload-compare.ts). */
export function chartDefaults(root: string) {
  const values = parse(readFileSync(join(root, 'helm', 'values.yaml'), 'utf8')) as {
    config: { bodyLimit: string; bodyBudget: string; maxHeapMb: number; logLevel: string };
    policies: { watch: boolean };
    resources: { limits: { memory: string } };
  };
  const mi = /^(\d+)Mi$/.exec(values.resources.limits.memory)?.[1];
  if (!mi) throw new Error(`helm/values.yaml resources.limits.memory is ${values.resources.limits.memory}, not <n>Mi`);
  return {
    limitBytes: Number(mi) * 2 ** 20,
    env: {
      BODY_LIMIT: values.config.bodyLimit,
      BODY_BUDGET: values.config.bodyBudget,
      LOG_LEVEL: values.config.logLevel,
      // The chart watches the mounted files by default: the watch is part of what the pod holds.
      POLICY_WATCH: String(values.policies.watch),
      NODE_OPTIONS: `--max-old-space-size=${values.config.maxHeapMb}`,
    },
  };
}

function alive(pid: number | undefined): boolean {
  try {
    return pid !== undefined && process.kill(pid, 0);
  } catch {
    return false;
  }
}

export async function successfulReloads(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('preflight_policy_reloads_total{result="success"}'));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

/**
 * Issue 48 item 3: the service on this Node.js with the chart's defaults (its heap bound, BODY_LIMIT,
 * BODY_BUDGET, log level and POLICY_WATCH from helm/values.yaml) and `policyDir`, inside a memory cgroup limited to
 * the chart's memory limit: how long it takes to start and to reload (SIGHUP, one file changed),
 * and its peak memory there over start, reload and `settings` of load. Without a cgroup here the
 * times are still measured; the peak is then the RSS high-water mark, said so in `cgroup`.
 */
export async function chartDefaultsStage(
  target: { policyDir: string; bundle: PolicyBundle },
  variants: readonly PayloadVariant[],
  settings: LoadSettings,
  /** The service to start: the build in dist/ unless told (a script comparing two builds). */
  mainScript: string = join(repoRoot(), 'dist', 'main.js'),
): Promise<ChartDefaultsFigures> {
  const root = repoRoot();
  const chart = chartDefaults(root);
  const cgroup = memoryCgroup(`preflight-bench-chart-${process.pid}`, chart.limitBytes);
  const expected = await expectedStatuses(variants, target.bundle);
  const figures: ChartDefaultsFigures = {
    policies: target.bundle.policies.length,
    limitMb: chart.limitBytes / 2 ** 20,
    cgroup: 'skipped' in cgroup ? cgroup : cgroup.version,
    startupMs: Number.NaN,
    reloadMs: Number.NaN,
    peakMb: Number.NaN,
    peakReadyMb: Number.NaN,
    peakReloadedMb: Number.NaN,
    requestsPerSecond: 0,
    p99Ms: 0,
    unexpected: 0,
    oomKills: 0,
  };
  const oomKills = () => ('skipped' in cgroup ? 0 : cgroup.oomKills());
  const peakMb = () =>
    ('skipped' in cgroup ? (proc?.memory().peakRssMb ?? Number.NaN) * 2 ** 20 : cgroup.peakBytes()) / 2 ** 20;
  let proc: TargetProcess | undefined;
  try {
    proc = await startTarget(
      mainScript,
      { WEBHOOK_SECRET: SECRET, POLICY_DIR: target.policyDir, ...chart.env },
      async (url) => (await fetch(`${url}/readyz`)).status === 200,
      [],
      'skipped' in cgroup ? undefined : cgroup.wrap,
    );
    figures.startupMs = proc.startupMs;
    figures.peakReadyMb = peakMb();
    const file = readdirSync(target.policyDir).find((f) => f.endsWith('.yaml'));
    if (!file) throw new Error(`${target.policyDir} has no .yaml file to change for the reload`);
    // A comment changes the content (an unchanged set is not reloaded) and nothing else.
    appendFileSync(join(target.policyDir, file), '\n# bench: reload\n');
    const url = proc.url;
    const before = await successfulReloads(url);
    const reloadStarted = Date.now();
    process.kill(proc.pid, 'SIGHUP');
    // A poll that fails (a keep-alive connection reset under the reload's load) is tried again while the service lives.
    const counted = () =>
      successfulReloads(url).catch((err: unknown) => {
        if (!alive(proc?.pid)) throw err;
        return before;
      });
    while ((await counted()) === before) {
      if (Date.now() - reloadStarted > 120_000) throw new Error('the reload was not counted within 120 s');
      await new Promise((r) => setTimeout(r, 10));
    }
    figures.reloadMs = Date.now() - reloadStarted;
    figures.peakReloadedMb = peakMb();
    const load = await runLoad(url, variants, expected, settings, proc.cpuSeconds);
    figures.requestsPerSecond = load.requestsPerSecond;
    figures.p99Ms = load.p99Ms;
    figures.unexpected = load.unexpected + load.status5xx + load.errors;
    figures.peakMb = peakMb();
    figures.oomKills = oomKills();
    return figures;
  } catch (err) {
    // The service ended or stopped answering (the kernel's OOM killer, its heap bound): a figure, not a crash of the bench.
    figures.oomKills = oomKills();
    if (!('skipped' in cgroup)) figures.peakMb = cgroup.peakBytes() / 2 ** 20;
    const stderr = (proc?.output() ?? String(err)).trim().split('\n').slice(-3).join(' | ');
    figures.failure = `${err instanceof Error ? err.message : String(err)}; ${figures.oomKills} OOM kills; stderr: ${stderr || '-'}`;
    return figures;
  } finally {
    await proc?.stop();
    if (!('skipped' in cgroup)) cgroup.remove();
  }
}
