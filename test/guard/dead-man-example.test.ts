import { readFileSync } from 'node:fs';
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

describe('docs/guard.md, "Dead man"', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'guard.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Dead man'), doc.indexOf('## Exactly one cancel'));

  it('shows the example policy exactly as examples/dead-man has it', () => {
    const shown = /```yaml\n(kind: Policy[\s\S]*?)```/.exec(section)?.[1];
    const file = readFileSync(join(ROOT, 'examples', 'dead-man', 'attacked-service-dead-man.yaml'), 'utf8');
    expect(shown).toBe(file.replace(/^#.*\n/gm, ''));
  });
});
