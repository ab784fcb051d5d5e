"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.reportJunit = reportJunit;
const load_error_1 = require("../../policy/compile/load-error");
const xml = (s) => s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
/** JUnit's `time` attribute: seconds with millisecond precision. */
const time = (seconds) => seconds.toFixed(3);
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
/**
 * JUnit XML (what CI test reporters read): a <testsuite> per suite file, a <testcase> per case.
 * Suite problems and a run-level failure are <testcase>s of their own, so a reporter cannot show
 * a green run when nothing was tested.
 */
function reportJunit(run) {
    const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
    const problemCase = (classname, name, message) => `    <testcase classname="${xml(classname)}" name="${xml(name)}" time="0.000"><failure message="${xml(message.split('\n')[0])}">${xml(message)}</failure></testcase>`;
    // A suite with errors, or one that could not run, is a failing <testcase> of its own.
    const suiteProblem = (suite) => {
        const errors = suite.problems.filter((p) => p.severity === 'error');
        if (errors.length > 0)
            return { name: 'suite is valid', message: errors.map(load_error_1.formatProblem).join('\n') };
        return suite.notRunReason === undefined
            ? undefined
            : { name: 'suite ran', message: `could not run: ${suite.notRunReason}` };
    };
    const broken = run.suites.filter((s) => suiteProblem(s) !== undefined).length;
    const fatal = run.fatal ? 1 : 0;
    const suiteSeconds = run.suites.map((s) => sum(s.cases.map((c) => c.seconds)));
    out.push(`<testsuites name="preflight-gate policy tests" tests="${run.counts.cases + broken + fatal}" failures="${run.counts.failed + broken + fatal}" time="${time(sum(suiteSeconds))}">`);
    run.suites.forEach((suite, i) => {
        const problem = suiteProblem(suite);
        const extra = problem ? 1 : 0;
        out.push(`  <testsuite name="${xml(suite.file)}" tests="${suite.cases.length + extra}" failures="${suite.cases.filter((c) => !c.ok).length + extra}" time="${time(suiteSeconds[i])}">`);
        if (problem)
            out.push(problemCase(suite.file, problem.name, problem.message));
        for (const c of suite.cases) {
            const head = `    <testcase classname="${xml(suite.file)}" name="${xml(c.name)}" file="${xml(suite.file)}" line="${c.line}" time="${time(c.seconds)}"`;
            out.push(c.ok
                ? `${head}/>`
                : `${head}><failure message="${xml(c.failures[0] ?? 'failed')}">${xml(c.failures.join('\n'))}</failure></testcase>`);
        }
        out.push('  </testsuite>');
    });
    if (run.fatal) {
        const detail = [run.fatal, ...run.policyProblems.filter((p) => p.severity === 'error').map(load_error_1.formatProblem)].join('\n');
        out.push('  <testsuite name="preflight-gate" tests="1" failures="1" time="0.000">', problemCase('preflight-gate', 'policy tests ran', detail), '  </testsuite>');
    }
    out.push('</testsuites>');
    return `${out.join('\n')}\n`;
}
//# sourceMappingURL=report-junit.js.map