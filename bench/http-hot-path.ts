import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPolicyDir } from '../src/policy/loading/load-policy-dir';
import { generatePolicySet } from '../test/helpers/policy-sets/generate-policies';
import { usableRuleKinds } from '../test/helpers/policy-sets/usable-rule-kinds';
import { type HttpTarget, measureTarget, SECRET } from './http-stage';
import { repoRoot } from './paths';
import { payloadVariants } from './payload-variants';

/**
 * The HTTP stage alone (the floor, the bundled policies, generated sets), for comparing changes to
 * the request path without the whole bench: `node .bench/build/bench/http-hot-path.js [rounds]
 * [seconds] [sizes,...] [--profile]`, run on the Node.js to judge (its servers run on it too).
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2).filter((a) => a !== '--profile');
  const rounds = Number(args[0] ?? 3);
  const seconds = Number(args[1] ?? 5);
  const sizes = (args[2] ?? '1000').split(',').filter(Boolean).map(Number);
  const root = repoRoot();
  const nodeArgs = process.argv.includes('--profile')
    ? ['--cpu-prof', `--cpu-prof-dir=${join(root, '.bench', 'profiles', 'hot-path')}`]
    : [];
  const work = mkdtempSync(join(tmpdir(), 'preflight-hot-path-'));
  try {
    const load = (dir: string) => {
      const result = loadPolicyDir(dir);
      if (!result.ok) throw new Error(`${dir} does not load`);
      return result.bundle;
    };
    const kinds = usableRuleKinds().usable;
    const targets: HttpTarget[] = [
      { name: 'floor', kind: 'floor' },
      { name: 'bundled', kind: 'bundled', policyDir: join(root, 'policies'), bundle: load(join(root, 'policies')) },
      ...sizes.map((size) => {
        const dir = join(work, `policies-${size}`);
        mkdirSync(dir);
        for (const f of generatePolicySet(size, kinds)) writeFileSync(join(dir, f.file), f.text);
        return { name: `${size}`, kind: 'generated' as const, policyDir: dir, bundle: load(dir) };
      }),
    ];
    const variants = payloadVariants(SECRET);
    const settings = { connections: 10, warmupSeconds: 1, seconds };
    for (let r = 1; r <= rounds; r++) {
      const [floor, ...others] = targets;
      let base: { rps: number; p99: number } | undefined;
      for (const t of [floor, ...(r % 2 === 1 ? others : [...others].reverse())]) {
        const m = await measureTarget(t, variants, settings, nodeArgs);
        if (m.unexpected > 0 || m.errors > 0)
          throw new Error(`${t.name}: ${m.unexpected} unexpected, ${m.errors} errors`);
        base ??= { rps: m.requestsPerSecond, p99: m.p99Ms };
        process.stdout.write(
          `round ${r} ${t.name.padEnd(8)} ${m.requestsPerSecond.toFixed(0).padStart(6)} req/s  x floor ${(m.requestsPerSecond / base.rps).toFixed(2)}  p99 ${m.p99Ms} ms (x ${(m.p99Ms / base.p99).toFixed(2)})  CPU ${m.cpuMicrosPerRequest.toFixed(0)} us/req  core ${m.coreUsePercent.toFixed(0)}%\n`,
        );
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(2);
});
