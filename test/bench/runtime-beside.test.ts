import { formatReport } from '../../bench/report';
import { besideRows } from '../../bench/runtime-report';
import { benchResults } from './bench-results';

// npm run bench measures on the Node.js the image ships and judges every target on it; the run on
// the Node.js that started it is shown beside, figure by figure (issue 48 item 1).
const engine = (policies: number, microsPerDecision: number) => ({
  policies,
  decisionsPerSecond: 1e6 / microsPerDecision,
  microsPerDecision,
  visitedPerDecision: 1,
  fullScanMicrosPerDecision: microsPerDecision,
});

test('each figure of the shipped run is paired with the same figure of the run beside, - where it has none', () => {
  const shipped = benchResults({
    machine: { cpus: 2, cpuModel: 'cpu', node: 'v26.12.1', memoryMb: 1024 },
    engine: [engine(10, 7.4), engine(1000, 80.9)],
    guard: [
      {
        set: 'bundled policies',
        store: 'Redis',
        policies: 10,
        runs: 1000,
        cpuMsPerTick: 18.1,
        cpuMicrosPerRun: 18.1,
        maxLoopDelayMs: 2,
      },
    ],
  });
  const beside = benchResults({
    machine: { cpus: 2, cpuModel: 'cpu', node: 'v20.20.2', memoryMb: 1024 },
    engine: [engine(1000, 214.7), engine(10, 33.8)],
  });
  expect(besideRows(shipped, beside)).toEqual([
    ['engine 10 policies: us/decision', '7.4', '33.8'],
    ['engine 1000 policies: us/decision', '80.9', '214.7'],
    ['guard 1000 runs, bundled policies, in Redis: CPU ms/tick', '18.1', '-'],
  ]);
  const report = formatReport({ ...shipped, beside }).split('\n');
  expect(report).toContain('Targets (judged on Node v26.12.1):');
  expect(report.some((l) => /^figure +Node v26\.12\.1 \(judged\) +Node v20\.20\.2$/.test(l))).toBe(true);
  expect(report.some((l) => /^engine 1000 policies: us\/decision +80\.9 +214\.7$/.test(l))).toBe(true);
});

test('without a run beside (the bench ran on the shipped Node.js), the report has no such section', () => {
  const report = formatReport(benchResults({ machine: { cpus: 2, cpuModel: 'cpu', node: 'v26.1.0', memoryMb: 1 } }));
  expect(report).not.toContain('The same bench on');
  expect(report).toContain('Targets (judged on Node v26.1.0):');
});
