"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.reportGithub = reportGithub;
const format_problems_1 = require("../format-problems");
const report_text_1 = require("./report-text");
/**
 * GitHub Actions annotations (workflow commands) for a test run: one per failing case at its line
 * in the suite file, one per suite or policy problem, one for a run that tested nothing; then the
 * text report, so the job log reads as usual.
 */
function reportGithub(run) {
    const lines = [];
    for (const p of run.policyProblems)
        lines.push((0, format_problems_1.githubAnnotation)(p, 'preflight-gate: policy'));
    for (const suite of run.suites) {
        for (const p of suite.problems)
            lines.push((0, format_problems_1.githubAnnotation)(p, 'preflight-gate: test suite'));
        for (const c of suite.cases.filter((x) => !x.ok)) {
            lines.push((0, format_problems_1.githubAnnotation)({ file: suite.file, line: c.line, col: c.col, path: '', message: c.failures.join('\n'), severity: 'error' }, `policy test failed: ${c.name}`));
        }
    }
    if (run.fatal)
        lines.push(`::error title=preflight-gate test::${run.fatal.replace(/%/g, '%25').replace(/\n/g, '%0A')}`);
    return `${lines.map((l) => `${l}\n`).join('')}${(0, report_text_1.reportText)(run)}`;
}
//# sourceMappingURL=report-github.js.map