import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadPolicyDir } from '../src/policy/loading/load-policy-dir';
import { generatePolicySet } from '../test/helpers/policy-sets/generate-policies';
import { usableRuleKinds } from '../test/helpers/policy-sets/usable-rule-kinds';
import { chartDefaultsStage } from './chart-defaults-stage';
import { SECRET } from './http-stage';
import { payloadVariants } from './payload-variants';

const USAGE =
  'usage: node .bench/build/bench/chart-defaults-main.js [--policies N] [--rounds N] [--seconds N] [main.js ...]\n' +
  '  runs the chart-defaults stage alone (start, reload, load in a memory cgroup of the chart limit) on this Node.js,\n' +
  '  each round over every main.js given (default dist/main.js), in turn, to compare builds in one run';

function option(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [, value] = args.splice(at, 2);
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} takes a positive integer, not ${value}\n${USAGE}`);
  return n;
}

/** One line per stage run: the figures that say where the memory goes, for the builds compared side by side. */
async function main(argv: string[]): Promise<void> {
  const args = [...argv];
  if (args.includes('--help')) return void process.stdout.write(`${USAGE}\n`);
  const policies = option(args, '--policies', 10_000);
  const rounds = option(args, '--rounds', 3);
  const seconds = option(args, '--seconds', 15);
  const scripts = args.length > 0 ? args.map((a) => resolve(a)) : [resolve('dist', 'main.js')];
  const work = mkdtempSync(join(tmpdir(), 'preflight-chart-defaults-'));
  try {
    const dir = join(work, `policies-${policies}`);
    mkdirSync(dir);
    for (const f of generatePolicySet(policies, usableRuleKinds().usable)) writeFileSync(join(dir, f.file), f.text);
    const loaded = loadPolicyDir(dir);
    if (!loaded.ok) throw new Error(`${dir} does not load: ${loaded.problems[0]?.message}`);
    const variants = payloadVariants(SECRET);
    const settings = { connections: 10, warmupSeconds: 3, seconds };
    for (let r = 1; r <= rounds; r++) {
      // Every other round takes the builds in reverse, so none always runs on a warmer machine.
      for (const script of r % 2 === 1 ? scripts : [...scripts].reverse()) {
        const f = await chartDefaultsStage({ policyDir: dir, bundle: loaded.bundle }, variants, settings, script);
        const pct = (mb: number) => `${mb.toFixed(1)} MiB (${((100 * mb) / f.limitMb).toFixed(1)}%)`;
        process.stdout.write(
          `round ${r} ${script}: cgroup ${typeof f.cgroup === 'string' ? f.cgroup : f.cgroup.skipped}; ` +
            `peak ready ${pct(f.peakReadyMb)}, reloaded ${pct(f.peakReloadedMb)}, under load ${pct(f.peakMb)}; ` +
            `start ${f.startupMs} ms, reload ${f.reloadMs} ms; ${Math.round(f.requestsPerSecond)} req/s, ` +
            `${f.unexpected} unexpected, ${f.oomKills} OOM kills${f.failure ? `; FAILED ${f.failure}` : ''}\n`,
        );
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
