import { appendFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePolicySet } from '../test/helpers/policy-sets/generate-policies';
import { usableRuleKinds } from '../test/helpers/policy-sets/usable-rule-kinds';
import { chartDefaults, successfulReloads } from './chart-defaults-stage';
import { SECRET } from './http-stage';
import { repoRoot } from './paths';
import { startTarget } from './target-process';

const USAGE =
  'usage: node .bench/build/bench/start-reload-compare.js <rounds> <label>=<dist dir> ... (run it with the Node.js to measure)';

interface Round {
  startS: number;
  startCpuS: number;
  reloadS: number;
  reloadCpuS: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One start and one reload of `dist`'s service on the generated set in `dir`, as the chart-defaults
 * stage starts it (helm/values.yaml's environment): spawn until /readyz answers, then, once the
 * watch's second look is over, SIGHUP with one file changed until the reload is counted. CPU is the
 * process's own (user + system), read from /proc.
 */
async function round(dist: string, dir: string): Promise<Round> {
  const env = { WEBHOOK_SECRET: SECRET, POLICY_DIR: dir, ...chartDefaults(repoRoot()).env };
  const ready = async (url: string) => (await fetch(`${url}/readyz`)).status === 200;
  const proc = await startTarget(join(dist, 'main.js'), env, ready);
  try {
    const startCpuS = proc.cpuSeconds();
    await sleep(2000);
    const file = readdirSync(dir).find((f) => f.endsWith('.yaml')) as string;
    appendFileSync(join(dir, file), '\n# bench: reload\n');
    const before = await successfulReloads(proc.url);
    const cpuBefore = proc.cpuSeconds();
    const started = Date.now();
    process.kill(proc.pid, 'SIGHUP');
    while ((await successfulReloads(proc.url).catch(() => before)) === before) await sleep(10);
    const reloadS = (Date.now() - started) / 1000;
    await sleep(500); // the watch's reload of the same change, if it came second
    return { startS: proc.startupMs / 1000, startCpuS, reloadS, reloadCpuS: proc.cpuSeconds() - cpuBefore };
  } finally {
    await proc.stop();
  }
}

const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}`;

/**
 * Start-up and reload of 10,000 generated policies for several builds, alternating them round by
 * round so each sees the same machine (docs/decisions/0032): ranges of wall and CPU seconds.
 */
async function main(args: readonly string[]): Promise<void> {
  const [rounds, ...builds] = args;
  if (!Number(rounds) || builds.length === 0 || builds.some((b) => !b.includes('='))) throw new Error(USAGE);
  const dir = mkdtempSync(join(tmpdir(), 'preflight-start-reload-'));
  try {
    for (const f of generatePolicySet(10_000, usableRuleKinds().usable)) writeFileSync(join(dir, f.file), f.text);
    const results = new Map<string, Round[]>();
    for (let i = 0; i < Number(rounds); i++)
      for (const build of i % 2 === 0 ? builds : [...builds].reverse()) {
        const [label, dist] = build.split('=');
        const r = await round(dist, dir);
        results.set(label, [...(results.get(label) ?? []), r]);
        process.stdout.write(`${label} ${JSON.stringify(r)}\n`);
      }
    for (const [label, rs] of results)
      process.stdout.write(
        `${label}: start ${range(rs.map((r) => r.startS))} s (CPU ${range(rs.map((r) => r.startCpuS))} s), reload ${range(rs.map((r) => r.reloadS))} s (CPU ${range(rs.map((r) => r.reloadCpuS))} s)\n`,
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
