import { formatProblem } from '../../policy/loading/load-error';
import type { TestRun } from './test-run';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The human summary: a line per suite, every failing expectation spelled out, then the totals. */
export function reportText(run: TestRun): string {
  const lines: string[] = [];
  for (const p of run.policyProblems) lines.push(formatProblem(p));
  for (const suite of run.suites) {
    const passed = suite.cases.filter((c) => c.ok).length;
    const errors = suite.problems.filter((p) => p.severity === 'error').length;
    const outcome =
      suite.notRun !== undefined
        ? `could not run: ${suite.notRun}${suite.written === 0 ? '' : `; ${plural(suite.written, 'case')} not tested`}`
        : `${passed}/${plural(suite.cases.length, 'case')} passed${errors > 0 ? `, and the suite file has ${plural(errors, 'error')} (below)` : ''}`;
    lines.push(
      `${suite.ok ? 'PASS' : 'FAIL'} ${suite.file}${suite.name !== suite.file ? ` (${suite.name})` : ''}: ${outcome}`,
    );
    for (const p of suite.problems) lines.push(`  ${formatProblem(p)}`);
    for (const c of suite.cases) {
      if (c.ok) continue;
      lines.push(`  ✗ ${c.name} (${suite.file}:${c.line}:${c.col})`);
      for (const f of c.failures) lines.push(`      ${f}`);
    }
  }
  if (run.fatal) lines.push(`FAIL: ${run.fatal}`);
  const { suites, failedSuites, notRunSuites, cases, passed, failed, notRun } = run.counts;
  const couldNotRun = notRunSuites > 0 ? `, ${notRunSuites} of them could not run` : '';
  const untested = notRunSuites > 0 ? `, ${notRun} not run` : '';
  lines.push(
    `${run.ok ? 'OK' : 'FAILED'}: ${plural(suites, 'suite')} (${failedSuites} failed${couldNotRun}), ${plural(cases, 'case')}: ${passed} passed, ${failed} failed${untested}${run.revision ? `; policy revision ${run.revision}` : ''}`,
  );
  return `${lines.join('\n')}\n`;
}
