import type { BenchResults } from './figures';
import { OVERLAP_BUDGET_MS } from './targets';
import { formatBeside } from './runtime-report';
import type { ChartDefaultsFigures } from './chart-defaults-stage';
import type { ProveFigures } from './prove-stage';

function table(head: string[], rows: Array<Array<string | number>>): string {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

const n0 = (n: number) => Math.round(n).toLocaleString('en-US');
const n2 = (n: number) => n.toFixed(2);

/** The human-readable report: HTTP table, engine table, load times, then PASS/FAIL per target. */
export function formatReport(r: BenchResults): string {
  const http = table(
    [
      'target',
      'policies',
      'req/s',
      'x floor',
      'p50 ms',
      'p99 ms',
      'p99 x floor',
      'CPU us/req',
      'core %',
      'steal %',
      'RSS MB',
      'peak RSS MB',
      'start ms',
      'unexpected',
      '5xx',
      'errors',
    ],
    r.http.map((t) => [
      t.name,
      t.policies,
      n0(t.requestsPerSecond),
      n2(t.throughputRatio),
      t.p50Ms,
      t.p99Ms,
      n2(t.p99Ratio),
      n0(t.cpuMicrosPerRequest),
      n0(t.coreUsePercent),
      t.stealPercent === undefined ? '-' : t.stealPercent.toFixed(1),
      n0(t.rssMb),
      n0(t.peakRssMb),
      n0(t.startupMs),
      t.unexpected,
      t.status5xx,
      t.errors,
    ]),
  );
  const at100 = r.engine.find((e) => e.policies === 100);
  const engine = table(
    ['policies', 'decisions/s', 'us/decision', 'x cost at 100', 'visited/decision', 'us/decision full scan'],
    r.engine.map((e) => [
      e.policies,
      n0(e.decisionsPerSecond),
      e.microsPerDecision.toFixed(1),
      at100 ? n2(e.microsPerDecision / at100.microsPerDecision) : '-',
      e.visitedPerDecision.toFixed(1),
      e.fullScanMicrosPerDecision.toFixed(1),
    ]),
  );
  const largeRuns = table(
    [
      'policy set',
      'targets',
      'body MB',
      'parse + validate ms',
      'x floor',
      'decide ms',
      'visited/decision',
      'ns per target x policy',
      'plain read ns per target',
    ],
    (r.largeRuns ?? []).map((l) => [
      l.set,
      l.targets,
      (l.bodyBytes / 2 ** 20).toFixed(1),
      (l.parseMicros / 1000).toFixed(1),
      n2(l.parseMicros / l.floorParseMicros),
      (l.decideMicros / 1000).toFixed(2),
      l.visitedPerDecision.toFixed(1),
      l.nanosPerTargetPolicy.toFixed(1),
      l.readNanosPerTarget.toFixed(0),
    ]),
  );
  const bigHttp = r.largeRunHttp;
  const largeRunHttp = bigHttp
    ? table(
        [
          'target',
          'policies',
          'req/s',
          'x floor',
          'CPU ms/req',
          'CPU x floor',
          'p50 ms',
          'p99 ms',
          'p99 x floor',
          'core %',
          'peak RSS MB',
        ],
        bigHttp.http.map((t) => [
          t.name,
          t.policies,
          n2(t.requestsPerSecond),
          n2(t.throughputRatio),
          (t.cpuMicrosPerRequest / 1000).toFixed(1),
          n2(t.cpuRatio),
          t.p50Ms,
          t.p99Ms,
          n2(t.p99Ratio),
          n0(t.coreUsePercent),
          n0(t.peakRssMb),
        ]),
      )
    : '';
  const loads = table(
    ['policy files', 'load + validate ms', 'of which index ms'],
    r.loadTimes.map((l) => [l.files, n0(l.loadMs), l.indexMs.toFixed(1)]),
  );
  const replay = table(
    [
      'archived decisions',
      'policies',
      'archive MB (uncompressed)',
      'seconds',
      'CPU seconds',
      'decisions/s',
      'peak RSS MB',
      'unchanged',
      'load avg (1 min)',
    ],
    (r.replay ?? []).map((x) => [
      x.records,
      x.policies,
      n0(x.archiveMb),
      x.seconds.toFixed(1),
      x.cpuSeconds.toFixed(1),
      n0(x.decisionsPerSecond),
      n0(x.peakRssMb),
      x.unchanged,
      `${x.loadAverage.toFixed(1)} on ${x.cores} cores`,
    ]),
  );
  const guard = table(
    [
      'policy set (every policy guarding)',
      'runs kept in',
      'policies',
      'runs in progress',
      'CPU ms/tick',
      'CPU us/run',
      'longest loop hold ms',
    ],
    (r.guard ?? []).map((g) => [
      g.set,
      g.store ?? 'memory',
      g.policies,
      g.runs,
      g.cpuMsPerTick.toFixed(1),
      g.cpuMicrosPerRun.toFixed(1),
      g.maxLoopDelayMs.toFixed(1),
    ]),
  );
  const payloads = r.payloads
    .map(
      (p) =>
        `  ${p.name}: ${Object.entries(p.expected)
          .map(([t, s]) => `${t} ${s}`)
          .join(', ')}`,
    )
    .join('\n');
  const targets = r.targets.map((t) => `${t.pass ? 'PASS' : 'FAIL'}  ${t.name}: ${t.detail}`).join('\n');
  return [
    `preflight-gate benchmark (${r.mode}) ${r.startedAt}`,
    `machine: ${r.machine.cpus} cores (${r.machine.cpuModel}), ${n0(r.machine.memoryMb)} MB, node ${r.machine.node}`,
    `load: ${r.settings.connections} connections, ${r.settings.warmupSeconds} s warm-up + ${r.settings.seconds} s per target${r.settings.httpRounds > 1 ? `, ${r.settings.httpRounds} rounds` : ''}; engine: ${r.settings.engineSeconds} s per size`,
    `rule kinds used: ${r.ruleKinds.usable.join(', ')}`,
    ...r.ruleKinds.notes.map((n) => `note: ${n}`),
    'expected status per payload:',
    payloads,
    '',
    'HTTP (each target its own process, same signed payloads; CPU us/req: the target process CPU time per answer;',
    "core %: that CPU time over the run's length; well under 100 means the target was held back and its ratio understates it;",
    "steal %: share of the machine's CPU time the hypervisor gave to other guests during the measured run, a sign of noisy neighbours):",
    'x floor: ratio to the floor (bare node:http on the same runtime: raw body, HMAC, JSON.parse, 200 {}; bench/floor-app.ts), which every HTTP target is judged against.',
    ...(r.settings.httpRounds > 1
      ? [
          `${r.settings.httpRounds} rounds, each measuring the floor and then every target (every other round in reverse); x floor and p99 x floor: the median of the rounds' ratios; req/s, p50, p99, CPU, core %: medians; steal and peak RSS: the highest; counts: all rounds.`,
        ]
      : []),
    http,
    ...(r.settings.httpRounds > 1
      ? [
          `x floor per round: ${r.http
            .filter((t) => t.kind !== 'floor')
            .map((t) => `${t.name} ${t.throughputRatios.map(n2).join(', ')}`)
            .join('; ')}`,
        ]
      : []),
    '',
    'Engine alone (evaluate() in a loop, CPU time; full scan = every policy visited, as before the index):',
    engine,
    '',
    'Big runs (every target with 15 attributes, as targetAttributeIncludes * sends them; in-process (no HTTP), each policy set in a process of its own and the parse in one more; CPU time;\nx floor: the strict parse + validation over plain JSON.parse + the same validation, as before the strict parser (0ef176e), same rounds):',
    largeRuns,
    '',
    ...(bigHttp
      ? [
          `Big runs over HTTP (${bigHttp.targets.toLocaleString('en-US')} targets, ${(bigHttp.bodyBytes / 2 ** 20).toFixed(1)} MB bodies, ${bigHttp.connections} connections, each target its own process; x floor: throughput over the floor's, which reads the body, checks its HMAC and parses it with JSON.parse; CPU x floor: the CPU per request over the floor's):`,
          largeRunHttp,
          '',
        ]
      : []),
    'Load and validate a policy directory:',
    loads,
    '',
    'preflight-gate replay (gzipped archive against the same policies, its own process; docs/replay.md):',
    replay,
    '',
    "Guarding runs in progress (one tick over 1,000 runs of 10 targets, every policy of the set guarding; the replica's CPU time (Redis's own not counted);\nlongest loop hold: the most a preflight could wait behind a tick, since the guard yields between runs; docs/guard.md):",
    guard,
    '',
    ...(r.overlap
      ? [
          `The overlap check (noOverlap, by 4 attribute keys; docs/guard.md): a preflight of a ${r.overlap.targetsPerRun}-target run, facts gathered, decided and settled (decided again under the overlap lock, kept) in-process, the bundled policies alone ${(r.overlap.withoutMicros / 1000).toFixed(3)} ms, with the rule and ${r.overlap.runs.toLocaleString('en-US')} runs of ${r.overlap.targetsPerRun} targets in progress ${(r.overlap.withMicros / 1000).toFixed(3)} ms: ${r.overlap.addedMs.toFixed(3)} ms added (budget ${OVERLAP_BUDGET_MS} ms); denied on an overlap ${r.overlap.addedDeniedMs.toFixed(3)} ms added; first preflight (indexes every run) ${r.overlap.firstIndexMs.toFixed(1)} ms.`,
          '',
        ]
      : []),
    ...(r.prove ? [formatProve(r.prove), ''] : []),
    ...(r.chartDefaults ? [formatChartDefaults(r.chartDefaults), ''] : []),
    ...(r.beside ? [formatBeside(r, r.beside), ''] : []),
    `Targets (judged on Node ${r.machine.node}):`,
    targets,
    r.mode === 'quick' ? '(quick mode: only correctness targets fail the run)' : '',
  ].join('\n');
}

function formatProve(p: ProveFigures): string {
  const rows = [p.bundledDiff, ...p.everydayEdits, p.bundledProve, p.generatedDiff].map((x) => [
    x.name,
    x.seconds.toFixed(2),
    x.cpuSeconds.toFixed(2),
    x.rounds.map((s) => s.toFixed(2)).join(' '),
    Object.entries(x.answers)
      .map(([k, v]) => `${k} ${v}`)
      .join(', '),
    x.unknown.length,
  ]);
  return [
    'preflight-gate diff and prove (the CLI as a process, node start included; docs/prove.md):',
    table(['run', 's', 'CPU s', 'rounds s', 'answers', 'unknown'], rows),
  ].join('\n');
}

function formatChartDefaults(c: ChartDefaultsFigures): string {
  const where =
    typeof c.cgroup === 'string'
      ? `in a cgroup ${c.cgroup} memory limit of ${c.limitMb} MB (the chart's)`
      : `not in a cgroup (${c.cgroup.skipped}): peak is the RSS high-water mark`;
  return [
    `${c.policies.toLocaleString('en-US')} policies with the chart's defaults (heap bound, body limit and budget, log level of helm/values.yaml), ${where}:`,
    table(
      ['policies', 'start ms', 'reload ms', 'peak MB', '% of limit', 'req/s', 'p99 ms', 'unexpected', 'OOM kills'],
      [
        [
          c.policies,
          n0(c.startupMs),
          n0(c.reloadMs),
          n0(c.peakMb),
          n0((100 * c.peakMb) / c.limitMb),
          n0(c.requestsPerSecond),
          c.p99Ms,
          c.unexpected,
          c.oomKills,
        ],
      ],
    ),
  ].join('\n');
}
