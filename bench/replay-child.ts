import { archiveSources } from '../src/replay/archive-sources';
import { replayArchive } from '../src/replay/replay-archive';
import { loadPolicyDir } from '../src/policy/loading/load-policy-dir';
import { replayWorkers } from '../src/replay/replay-workers-option';

/**
 * Replays one archive in a process of its own (`node replay-child.js <archive> <policy dir>`), as
 * `preflight-gate replay` does (`[workers]`: as `--workers`, default 0), and prints its figures
 * as JSON: the peak RSS is this process's alone, its threads' included.
 */
async function main(): Promise<void> {
  const [archive, dir, workersArg = '0'] = process.argv.slice(2);
  const loaded = loadPolicyDir(dir);
  if (!loaded.ok) throw new Error(`${dir} does not load`);
  const streams = archiveSources(archive);
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const report = await replayArchive({
    streams,
    archive,
    policyDir: dir,
    bundle: loaded.bundle,
    listed: 20,
    workers: replayWorkers(workersArg, streams),
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  process.stdout.write(
    `${JSON.stringify({ seconds, cpuSeconds: (used.user + used.system) / 1e6, counts: report.counts, peakRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`replay-child: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(2);
});
