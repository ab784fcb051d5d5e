import { join } from 'node:path';
import { testPolicyDir } from '../../src/cli/suite/test-run';
import { ROOT } from '../helpers/server-process';

/** examples/dead-man (docs/guard.md, "Dead man"): the policy loads and validates, and its suite passes. */
describe('the dead-man example', () => {
  it('loads without a problem and every case of its suite passes', () => {
    const run = testPolicyDir(join(ROOT, 'examples', 'dead-man'), {}, new Date('2026-01-05T10:00:00Z'));
    expect(run.policyProblems).toEqual([]);
    expect(run.suites.flatMap((s) => s.problems)).toEqual([]);
    expect(run.suites.flatMap((s) => s.cases.filter((c) => !c.ok).map((c) => [c.name, c.failures]))).toEqual([]);
    expect(run.suites.map((s) => s.cases.length)).toEqual([8]);
    expect(run.ok).toBe(true);
  });
});
