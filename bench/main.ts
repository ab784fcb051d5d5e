import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPolicyDir } from '../src/policy/loading/load-policy-dir';
import { usableRuleKinds } from '../test/helpers/policy-sets/usable-rule-kinds';
import { engineStage, loadTime } from './engine-bench';
import type { BenchResults, MeasuredTarget } from './figures';
import { combineRounds } from './http-rounds';
import { generatePolicySet } from '../test/helpers/policy-sets/generate-policies';
import { measureTarget, SECRET, type HttpTarget } from './http-stage';
import { repoRoot } from './paths';
import { payloadVariants } from './payload-variants';
import { formatReport } from './report';
import { groupRuleSet } from './group-rule-set';
import { GROUP_RULE_SET, largeRunStage } from './large-run-stage';
import {
  checkLargeRunHttpTargets,
  checkLargeRunTargets,
  checkOverlapTargets,
  checkProveTargets,
  checkTargets,
  checkReplayTargets,
} from './targets';
import { largeRunHttpStage } from './large-run-http-stage';
import { replayStage } from './replay-bench';
import { overlapStage } from './overlap-stage';
import { proveStage } from './prove-stage';
import { guardStage, MEMORY_GUARD_STORE } from './guard-stage';
import { type NodeRuntime, shippedNode } from '../test/helpers/shipped-node';
import { chartDefaultsStage } from './chart-defaults-stage';
import { checkChartDefaultsTargets } from './chart-defaults-targets';
import { redisGuardStores } from './guard-redis';
import { checkGuardTargets } from './guard-targets';
import { largeRun } from '../test/helpers/large-run';

const MODES = {
  full: {
    serverSizes: [1000, 10000],
    engineSizes: [10, 100, 1000, 10000],
    connections: 10,
    warmupSeconds: 3,
    seconds: 15,
    httpRounds: 3,
    engineSeconds: 2,
    replay: [20_000, 100_000],
    replayPolicies: 1000,
    largeRuns: [2500, 5000, 10000],
    largeRunSeconds: 2,
    largeRunHttp: { size: 2000, connections: 4, warmupSeconds: 2, seconds: 10 },
    guardTicks: 5,
    overlap: { rounds: 15, batch: 400 },
    prove: { policies: 1000, repeat: 3 },
  },
  quick: {
    serverSizes: [1000],
    engineSizes: [10, 100, 1000],
    connections: 10,
    warmupSeconds: 0.5,
    seconds: 2,
    httpRounds: 1,
    engineSeconds: 0.3,
    replay: [2_000],
    replayPolicies: 100,
    largeRuns: [500, 1000],
    largeRunSeconds: 0.2,
    largeRunHttp: { size: 1000, connections: 4, warmupSeconds: 0.5, seconds: 2 },
    guardTicks: 2,
    overlap: { rounds: 5, batch: 100 },
    prove: { policies: 1000, repeat: 1 },
  },
};
const USAGE =
  'usage: npm run bench [-- --quick] [-- --profile]  (--profile writes server CPU profiles to .bench/profiles/<node version>)';

function writeSet(dir: string, size: number, kinds: readonly string[]): string {
  const target = join(dir, `policies-${size}`);
  mkdirSync(target, { recursive: true });
  for (const f of generatePolicySet(size, kinds)) writeFileSync(join(target, f.file), f.text);
  return target;
}

function loaded(dir: string) {
  const result = loadPolicyDir(dir);
  if (!result.ok)
    throw new Error(
      `${dir} does not load: ${result.problems
        .map((p) => `${p.file}:${p.line} ${p.message}`)
        .slice(0, 3)
        .join('; ')}`,
    );
  return result.bundle;
}

/** Every stage on the runtime this process is (the runs of main() below, one per runtime); targets judged on its figures. */
async function measure(args: readonly string[]): Promise<BenchResults> {
  const mode = args.includes('--quick') ? 'quick' : 'full';
  const startedAt = new Date().toISOString();
  const m = MODES[mode];
  const root = repoRoot();
  const out = join(root, '.bench');
  const nodeArgs = args.includes('--profile')
    ? ['--cpu-prof', `--cpu-prof-dir=${join(out, 'profiles', process.version)}`]
    : [];
  const kinds = usableRuleKinds();
  const variants = payloadVariants(SECRET);
  const work = mkdtempSync(join(tmpdir(), 'preflight-bench-'));
  try {
    const targets: HttpTarget[] = [
      { name: 'floor (node:http + HMAC + JSON.parse)', kind: 'floor' },
      {
        name: 'bundled policies',
        kind: 'bundled',
        policyDir: join(root, 'policies'),
        bundle: loaded(join(root, 'policies')),
      },
      ...m.serverSizes.map((size) => {
        const dir = writeSet(work, size, kinds.usable);
        return {
          name: `${size.toLocaleString('en-US')} generated`,
          kind: 'generated' as const,
          policyDir: dir,
          bundle: loaded(dir),
        };
      }),
    ];
    const settings = { connections: m.connections, warmupSeconds: m.warmupSeconds, seconds: m.seconds };
    // Every round measures the floor and then each target, so each ratio is taken within a round.
    // Every other round takes the targets in reverse, so none is always the furthest from its floor.
    const rounds: MeasuredTarget[][] = [];
    // The status each target is expected to give each payload (the same in every round).
    const expected = new Map<string, number[]>();
    const floor = targets.find((t) => t.kind === 'floor');
    if (!floor) throw new Error('the HTTP stage has no floor to measure against');
    const others = targets.filter((t) => t !== floor);
    for (let r = 1; r <= m.httpRounds; r++) {
      const byName = new Map<string, MeasuredTarget>();
      for (const t of [floor, ...(r % 2 === 1 ? others : [...others].reverse())]) {
        process.stderr.write(`bench: ${t.name}${m.httpRounds > 1 ? ` (round ${r} of ${m.httpRounds})` : ''}...\n`);
        const { expected: statuses, ...figures } = await measureTarget(t, variants, settings, nodeArgs);
        byName.set(t.name, figures);
        expected.set(t.name, statuses);
      }
      rounds.push(targets.map((t) => byName.get(t.name) as MeasuredTarget));
    }
    const http = combineRounds(rounds);
    process.stderr.write('bench: engine alone...\n');
    const engine = await engineStage(m.engineSizes, kinds.usable, variants, m.engineSeconds);
    process.stderr.write(`bench: runs of ${m.largeRuns.map((n) => n.toLocaleString('en-US')).join(', ')} targets...\n`);
    const largeRunSets = [
      ...targets.flatMap((t) => (t.policyDir ? [{ name: t.name, source: t.policyDir }] : [])),
      { name: groupRuleSet().name, source: GROUP_RULE_SET },
    ];
    const largeRuns = largeRunStage(
      largeRunSets,
      m.largeRuns,
      m.largeRunSeconds,
      join(__dirname, 'large-run-child.js'),
    );
    const { size: largeRunHttpSize, ...largeRunHttpSettings } = m.largeRunHttp;
    const largeRunHttp = await largeRunHttpStage(
      targets.filter((t) => t.kind === 'floor' || t.kind === 'bundled' || t.bundle?.policies.length === 1000),
      largeRunHttpSize,
      largeRunHttpSettings,
      nodeArgs,
    );
    const loadTimes = m.serverSizes.map((size) => loadTime(join(work, `policies-${size}`), size));
    const replay = [];
    for (const records of m.replay) {
      process.stderr.write(
        `bench: replay ${records.toLocaleString('en-US')} archived decisions against ${m.replayPolicies.toLocaleString('en-US')} policies...\n`,
      );
      replay.push(
        await replayStage(work, records, m.replayPolicies, kinds.usable, variants, join(__dirname, 'replay-child.js')),
      );
    }
    process.stderr.write('bench: guarding 1,000 runs in progress (10 targets each), in this process and in Redis...\n');
    const guardSets = targets.flatMap((t) =>
      t.bundle && (t.kind === 'bundled' || t.bundle.policies.length === 1000)
        ? [{ name: t.name, bundle: t.bundle }]
        : [],
    );
    const guardRedis = await redisGuardStores();
    const guard = await guardStage(
      guardSets,
      variants.map((v) => largeRun(v.payload, 10)),
      1000,
      m.guardTicks,
      [MEMORY_GUARD_STORE, ...('open' in guardRedis ? [{ name: 'Redis' as const, open: guardRedis.open }] : [])],
    ).finally(() => ('close' in guardRedis ? guardRedis.close() : undefined));
    const largest = targets.filter((t) => t.kind === 'generated').at(-1);
    if (!largest?.policyDir || !largest.bundle) throw new Error('the bench has no generated policy set');
    process.stderr.write(
      `bench: ${largest.name} policies with the chart's defaults, in a memory cgroup of its limit...\n`,
    );
    const chartDefaults = await chartDefaultsStage(
      { policyDir: largest.policyDir, bundle: largest.bundle },
      variants,
      settings,
    );
    process.stderr.write('bench: the overlap check against 1,000 runs in progress of 100 targets...\n');
    const overlap = await overlapStage(join(root, 'policies'), work, { runs: 1000, targetsPerRun: 100, ...m.overlap });
    process.stderr.write(
      `bench: diff and prove (the bundled set, ${m.prove.policies.toLocaleString('en-US')} generated policies), the CLI as a process...\n`,
    );
    const prove = proveStage(root, work, { ...m.prove, kinds: kinds.usable, cores: cpus().length });
    const lines = [
      ...checkTargets(http, engine),
      ...checkOverlapTargets(overlap),
      ...checkProveTargets(prove),
      ...checkLargeRunTargets(largeRuns),
      ...checkLargeRunHttpTargets(largeRunHttp),
      ...checkReplayTargets(replay),
      ...checkGuardTargets(guard, 'skipped' in guardRedis ? guardRedis.skipped : undefined),
      ...checkChartDefaultsTargets(chartDefaults),
    ];
    const failed = lines.filter((l) => !l.pass && (mode === 'full' || l.correctness));
    const results: BenchResults = {
      mode,
      startedAt,
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? 'unknown',
        node: process.version,
        memoryMb: totalmem() / 2 ** 20,
      },
      settings: { ...settings, engineSeconds: m.engineSeconds, httpRounds: m.httpRounds },
      ruleKinds: kinds,
      payloads: variants.map((v, i) => ({
        name: v.name,
        expected: Object.fromEntries([...expected].map(([name, statuses]) => [name, statuses[i]])),
      })),
      http,
      httpRounds: rounds,
      engine,
      largeRuns,
      largeRunHttp,
      loadTimes,
      replay,
      guard,
      overlap,
      prove,
      chartDefaults,
      targets: lines,
      passed: failed.length === 0,
    };
    return results;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The runtimes measured: the one the image ships (judged), then this process's own beside it when it is another. */
function runtimes(root: string): Array<{ node: NodeRuntime; judged: boolean }> {
  const shipped = shippedNode(root, (line) => process.stderr.write(`${line}\n`));
  const own = { path: process.execPath, version: process.version };
  return [{ node: shipped, judged: true }, ...(shipped.path === own.path ? [] : [{ node: own, judged: false }])];
}

/**
 * `npm run bench`: the whole bench once on the Node.js the image ships (test/helpers/shipped-node.ts), whose
 * figures every target is judged on, then once on this process's Node.js for the figures beside them.
 * Each run is a process of that runtime (`--measure-to <file>`): its servers and children run on it too.
 */
async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args[0] === '--measure-to') {
    writeFileSync(args[1], JSON.stringify(await measure(args.slice(2))));
    return 0;
  }
  const unknown = args.filter((a) => a !== '--quick' && a !== '--profile');
  if (unknown.length > 0) throw new Error(`unknown option ${unknown.join(' ')}; ${USAGE}`);
  const root = repoRoot();
  const out = join(root, '.bench');
  mkdirSync(out, { recursive: true });
  const measured = runtimes(root).map(({ node, judged }) => {
    process.stderr.write(
      `bench: measuring on Node ${node.version}${judged ? ' (the image ships it: targets judged on it)' : ' (beside it)'}...\n`,
    );
    const file = join(out, `measured-${node.version}.json`);
    const child = spawnSync(node.path, [__filename, '--measure-to', file, ...args], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (child.status !== 0)
      throw new Error(`the bench on Node ${node.version} failed (${child.signal ?? `exit code ${child.status}`})`);
    return JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
  });
  const [shipped, beside] = measured;
  const results: BenchResults = beside ? { ...shipped, beside } : shipped;
  writeFileSync(
    join(out, shipped.mode === 'full' ? 'results.json' : 'results-quick.json'),
    `${JSON.stringify(results, null, 2)}\n`,
  );
  process.stdout.write(`${formatReport(results)}\n`);
  return shipped.passed ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  },
);
