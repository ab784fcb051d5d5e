import type { BenchResults } from './figures';

type Row = [figure: string, shipped: string, beside: string];

const n0 = (n: number) => Math.round(n).toLocaleString('en-US');
const n1 = (n: number) => n.toFixed(1);
const n2 = (n: number) => n.toFixed(2);

/**
 * Pairs the figures of `a` and `b` by a key (the same target, size or set in both runs); a figure
 * one run has and the other has not shows `-` on that side.
 */
function paired<T>(
  a: readonly T[] | undefined,
  b: readonly T[] | undefined,
  key: (t: T) => string,
  figures: ReadonlyArray<[label: string, value: (t: T) => string]>,
): Row[] {
  const other = new Map((b ?? []).map((t) => [key(t), t]));
  return (a ?? []).flatMap((t) => {
    const o = other.get(key(t));
    return figures.map(([label, value]): Row => [`${key(t)}: ${label}`, value(t), o ? value(o) : '-']);
  });
}

/** The headline figures of the shipped runtime's run beside the same figures of the other run. */
export function besideRows(shipped: BenchResults, beside: BenchResults): Row[] {
  return [
    ...paired(shipped.http, beside.http, (t) => `HTTP ${t.name}`, [
      ['req/s', (t) => n0(t.requestsPerSecond)],
      ['x floor', (t) => n2(t.throughputRatio)],
      ['p99 ms', (t) => String(t.p99Ms)],
      ['p99 x floor', (t) => n2(t.p99Ratio)],
      ['CPU us/req', (t) => n0(t.cpuMicrosPerRequest)],
      ['peak RSS MB', (t) => n0(t.peakRssMb)],
      ['start ms', (t) => n0(t.startupMs)],
    ]),
    ...paired(shipped.engine, beside.engine, (e) => `engine ${e.policies} policies`, [
      ['us/decision', (e) => n1(e.microsPerDecision)],
    ]),
    ...paired(shipped.largeRuns, beside.largeRuns, (l) => `big run ${l.set}, ${l.targets} targets`, [
      ['parse + validate ms', (l) => n1(l.parseMicros / 1000)],
      ['x floor', (l) => n2(l.parseMicros / l.floorParseMicros)],
      ['decide ms', (l) => n2(l.decideMicros / 1000)],
    ]),
    ...paired(shipped.largeRunHttp?.http, beside.largeRunHttp?.http, (t) => `big run over HTTP ${t.name}`, [
      ['x floor', (t) => n2(t.throughputRatio)],
      ['CPU x floor', (t) => n2(t.cpuRatio)],
      ['p99 x floor', (t) => n2(t.p99Ratio)],
      ['peak RSS MB', (t) => n0(t.peakRssMb)],
    ]),
    ...paired(shipped.loadTimes, beside.loadTimes, (l) => `load ${l.files} policy files`, [
      ['load + validate ms', (l) => n0(l.loadMs)],
    ]),
    ...paired(shipped.replay, beside.replay, (x) => `replay ${x.records} decisions x ${x.policies} policies`, [
      ['seconds', (x) => n1(x.seconds)],
      ['peak RSS MB', (x) => n0(x.peakRssMb)],
    ]),
    ...paired(
      shipped.chartDefaults && [shipped.chartDefaults],
      beside.chartDefaults && [beside.chartDefaults],
      (c) => `${c.policies} policies, chart defaults`,
      [
        ['start ms', (c) => n0(c.startupMs)],
        ['reload ms', (c) => n0(c.reloadMs)],
        ['peak MB (cgroup)', (c) => n0(c.peakMb)],
      ],
    ),
    ...paired(
      shipped.prove && [
        shipped.prove.bundledDiff,
        ...shipped.prove.everydayEdits,
        shipped.prove.bundledProve,
        shipped.prove.generatedDiff,
      ],
      beside.prove && [
        beside.prove.bundledDiff,
        ...beside.prove.everydayEdits,
        beside.prove.bundledProve,
        beside.prove.generatedDiff,
      ],
      (x) => x.name,
      [['seconds', (x) => n2(x.seconds)]],
    ),
    ...paired(shipped.guard, beside.guard, (g) => `guard ${g.runs} runs, ${g.set}, in ${g.store ?? 'memory'}`, [
      ['CPU ms/tick', (g) => n1(g.cpuMsPerTick)],
    ]),
  ];
}

/** The report's section of the figures beside: the shipped runtime's (judged) and the other's, row by row. */
export function formatBeside(shipped: BenchResults, beside: BenchResults): string {
  const rows = besideRows(shipped, beside);
  const head: Row = ['figure', `Node ${shipped.machine.node} (judged)`, `Node ${beside.machine.node}`];
  const widths = head.map((_, i) => Math.max(...[head, ...rows].map((r) => r[i].length)));
  const line = (r: Row) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const failedBeside = beside.targets.filter((t) => !t.pass).map((t) => t.name);
  return [
    `The same bench on Node ${beside.machine.node} (the Node.js that ran npm run bench), measured after the run above; no target is judged on it:`,
    line(head),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.map(line),
    failedBeside.length > 0
      ? `on Node ${beside.machine.node} these targets would not be met: ${failedBeside.join('; ')}`
      : `on Node ${beside.machine.node} every target would be met too`,
  ].join('\n');
}
