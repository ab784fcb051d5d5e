"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.reportText = reportText;
const load_error_1 = require("../../policy/compile/load-error");
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
/** What a suite that could not run left untested: its cases, or that how many is unknown (its file is not valid YAML). */
function untestedText(written) {
    if (written === null)
        return '; its cases not tested (how many is unknown: the file is not valid YAML)';
    return written === 0 ? '' : `; ${plural(written, 'case')} not tested`;
}
/** The human summary: a line per suite, every failing expectation spelled out, then the totals. */
function reportText(run) {
    const lines = [];
    for (const p of run.policyProblems)
        lines.push((0, load_error_1.formatProblem)(p));
    for (const suite of run.suites) {
        const passed = suite.cases.filter((c) => c.ok).length;
        const errors = suite.problems.filter((p) => p.severity === 'error').length;
        const outcome = suite.notRunReason !== undefined
            ? `could not run: ${suite.notRunReason}${untestedText(suite.written)}`
            : `${passed}/${plural(suite.cases.length, 'case')} passed${errors > 0 ? `, and the suite file has ${plural(errors, 'error')} (below)` : ''}`;
        lines.push(`${suite.ok ? 'PASS' : 'FAIL'} ${suite.file}${suite.name !== suite.file ? ` (${suite.name})` : ''}: ${outcome}`);
        for (const p of suite.problems)
            lines.push(`  ${(0, load_error_1.formatProblem)(p)}`);
        for (const c of suite.cases) {
            if (c.ok)
                continue;
            lines.push(`  ✗ ${c.name} (${suite.file}:${c.line}:${c.col})`);
            for (const f of c.failures)
                lines.push(`      ${f}`);
        }
    }
    if (run.fatal)
        lines.push(`FAIL: ${run.fatal}`);
    const { suites, failedSuites, notRunSuites, cases, passed, failed, notRun, uncountedSuites } = run.counts;
    const couldNotRun = notRunSuites > 0 ? `, ${notRunSuites} of them could not run` : '';
    const uncounted = uncountedSuites > 0
        ? ` and the cases of ${plural(uncountedSuites, 'suite')} that ${uncountedSuites === 1 ? 'is' : 'are'} not valid YAML (how many is unknown)`
        : '';
    const untested = notRunSuites > 0 ? `, ${notRun} not run${uncounted}` : '';
    lines.push(`${run.ok ? 'OK' : 'FAILED'}: ${plural(suites, 'suite')} (${failedSuites} failed${couldNotRun}), ${plural(cases, 'case')}: ${passed} passed, ${failed} failed${untested}${run.revision ? `; policy revision ${run.revision}` : ''}`);
    return `${lines.join('\n')}\n`;
}
//# sourceMappingURL=report-text.js.map