import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { overlapStage, type OverlapFigures } from '../../bench/overlap-stage';
import { formatReport } from '../../bench/report';
import { checkOverlapTargets, OVERLAP_BUDGET_MS } from '../../bench/targets';
import { benchResults } from './bench-results';

const figures = (addedMs: number): OverlapFigures => ({
  runs: 1000,
  targetsPerRun: 100,
  withoutMicros: 200,
  withMicros: 200 + addedMs * 1000,
  addedMs,
  addedDeniedMs: addedMs,
  firstIndexMs: 900,
  rounds: 5,
});

describe('the overlap check in npm run bench', () => {
  test.each([
    [0.3, true],
    [OVERLAP_BUDGET_MS, true],
    [1.2, false],
  ])('adding %s ms to a preflight passes the 1 ms budget: %s', (added, pass) => {
    const [line] = checkOverlapTargets(figures(added));
    expect(line).toMatchObject({ pass, correctness: false });
    expect(line.name).toBe(
      'the overlap check against 1,000 runs of 100 targets in progress adds at most 1 ms to a preflight',
    );
    expect(line.detail).toContain(
      `${added.toFixed(3)} ms added (${(0.2 + added).toFixed(3)} ms with, 0.200 ms without`,
    );
  });

  test('the report prints the figures with the budget', () => {
    expect(formatReport({ ...benchResults(), overlap: figures(0.25) })).toContain(
      'with the rule and 1,000 runs of 100 targets in progress 0.450 ms: 0.250 ms added (budget 1 ms)',
    );
  });

  test('the stage measures the service path, and checks the overlapping run is denied by the rule', async () => {
    const work = mkdtempSync(join(tmpdir(), 'overlap-bench-'));
    try {
      const policies = join(__dirname, '..', '..', 'policies');
      const o = await overlapStage(policies, work, { runs: 20, targetsPerRun: 10, rounds: 1, batch: 3 });
      expect(o).toMatchObject({ runs: 20, targetsPerRun: 10, rounds: 1 });
      expect(o.withMicros).toBeGreaterThan(0);
      expect(o.withoutMicros).toBeGreaterThan(0);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
