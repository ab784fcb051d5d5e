import { formatProblem } from '../../policy/loading/load-error';
import type { TestRun } from './test-run';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The human summary: a line per suite, every failing expectation spelled out, then the totals. */
export function reportText(run: TestRun): string {
  const lines: string[] = [];
  for (const p of run.policyProblems) lines.push(formatProblem(p));
  for (const suite of run.suites) {
    const passed = suite.cases.filter((c) => c.ok).length;
    lines.push(
      `${suite.ok ? 'PASS' : 'FAIL'} ${suite.file}${suite.name !== suite.file ? ` (${suite.name})` : ''}: ${passed}/${plural(suite.cases.length, 'case')} passed`,
    );
    for (const p of suite.problems) lines.push(`  ${formatProblem(p)}`);
    for (const c of suite.cases) {
      if (c.ok) continue;
      lines.push(`  ✗ ${c.name} (${suite.file}:${c.line}:${c.col})`);
      for (const f of c.failures) lines.push(`      ${f}`);
    }
  }
  if (run.fatal) lines.push(`FAIL: ${run.fatal}`);
  const { suites, failedSuites, cases, passed, failed } = run.counts;
  lines.push(
    `${run.ok ? 'OK' : 'FAILED'}: ${plural(suites, 'suite')} (${failedSuites} failed), ${plural(cases, 'case')}: ${passed} passed, ${failed} failed${run.revision ? `; policy revision ${run.revision}` : ''}`,
  );
  return `${lines.join('\n')}\n`;
}
