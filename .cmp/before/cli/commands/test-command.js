"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.COVERAGE_FORMATS = exports.TEST_FORMATS = void 0;
exports.testCommand = testCommand;
const coverage_output_1 = require("../coverage/coverage-output");
Object.defineProperty(exports, "COVERAGE_FORMATS", { enumerable: true, get: function () { return coverage_output_1.COVERAGE_FORMATS; } });
const base_policies_1 = require("../coverage/base-policies");
const min_coverage_1 = require("../coverage/min-coverage");
const uncovered_text_1 = require("../coverage/uncovered-text");
const read_input_1 = require("../read-input");
const report_github_1 = require("../suite/report-github");
const report_junit_1 = require("../suite/report-junit");
const report_text_1 = require("../suite/report-text");
const test_run_1 = require("../suite/test-run");
const exit_codes_1 = require("../exit-codes");
exports.TEST_FORMATS = ['text', 'junit', 'json', 'github'];
/** The warnings the run printed: the policy set's and the suites'. */
const runWarnings = (run) => [...run.policyProblems, ...run.suites.flatMap((s) => s.problems)].filter((p) => p.severity === 'warning').length;
function testReport(run, format) {
    if (format === 'junit')
        return (0, report_junit_1.reportJunit)(run);
    if (format === 'github')
        return (0, report_github_1.reportGithub)(run);
    if (format === 'json')
        return `${JSON.stringify(run, null, 2)}\n`;
    return (0, report_text_1.reportText)(run);
}
const isDocument = (format) => format === 'json' || format === 'junit';
/**
 * Writes the test report to stdout and the coverage where it keeps every output readable
 * (docs/test-coverage.md): after the test report when both are text or github; as the run's
 * `coverage` field when both are json; to --coverage-file when given; else to stderr.
 */
function writeReports(run, opts, env, write, writeErr) {
    const { coverage, ...tested } = run;
    if (coverage === undefined) {
        write(testReport(tested, opts.format));
        if (opts.coverage)
            writeErr('preflight-gate: coverage not measured: no case ran on this policy set\n');
        return;
    }
    const format = opts.coverageFormat ?? (opts.format === 'junit' ? 'text' : opts.format);
    if (format === 'github')
        (0, coverage_output_1.writeJobSummary)(coverage, env, writeErr);
    if (opts.format === 'json' && format === 'json' && opts.coverageFile === undefined) {
        write(testReport(run, 'json'));
        return;
    }
    write(testReport(tested, opts.format));
    const text = (0, coverage_output_1.formatCoverage)(coverage, format);
    if (opts.coverageFile !== undefined)
        (0, coverage_output_1.writeCoverageFile)(opts.coverageFile, text);
    else if (isDocument(opts.format) || isDocument(format))
        writeErr(text);
    else
        write(text);
}
/**
 * `preflight-gate test [dir]`: runs the `*.test.yaml` suites against the policy set of `dir`.
 * Exit 0 only when at least one case ran and every suite passed (and, with --min-coverage, the
 * coverage is at least that; with --coverage-changed, every rule and window the set adds or edits
 * against the base is covered; with --strict, no warning was printed); 2 when a suite cannot run as
 * written (TestRun.invalidSuites), an option is invalid or the base directory cannot be read, else 1.
 */
function testCommand(dirArg, opts, env, write, writeErr = () => undefined) {
    const minimum = opts.minCoverage === undefined ? undefined : (0, min_coverage_1.parseMinCoverage)(opts.minCoverage);
    const base = opts.coverageChanged === undefined ? undefined : (0, base_policies_1.readBasePolicies)(opts.coverageChanged);
    const coverage = opts.coverage === true ||
        opts.coverageFormat !== undefined ||
        opts.coverageFile !== undefined ||
        minimum !== undefined ||
        base !== undefined;
    const dir = (0, read_input_1.policyDirArg)(dirArg, env);
    const run = (0, test_run_1.testPolicyDir)(dir, env, new Date(), coverage ? { coverage: { minimum, base } } : {});
    writeReports(run, { ...opts, coverage }, env, write, writeErr);
    if (!run.ok)
        return run.invalidSuites ? exit_codes_1.EXIT.usage : exit_codes_1.EXIT.failed;
    const warnings = runWarnings(run);
    if (opts.strict && warnings > 0) {
        writeErr(`preflight-gate: ${warnings} warning${warnings === 1 ? '' : 's'} (see above) and --strict: failing\n`);
        return exit_codes_1.EXIT.failed;
    }
    // Both verdicts are said when both fail: a pull request learns everything it has to fix at once.
    let failed = false;
    if (run.coverage?.belowMinimum) {
        writeErr(`preflight-gate: ${(0, uncovered_text_1.coverageVerdict)(run.coverage)}\n`);
        failed = true;
    }
    if (run.coverage && (0, uncovered_text_1.changesUncovered)(run.coverage)) {
        const missing = (0, uncovered_text_1.uncoveredChanges)(run.coverage).map(({ file, entry }) => `  ${file}:${entry.line}:${entry.col} ${(0, uncovered_text_1.uncoveredText)(entry)}\n`);
        writeErr(`preflight-gate: ${(0, uncovered_text_1.changedVerdict)(run.coverage)}:\n${missing.join('')}`);
        failed = true;
    }
    return failed ? exit_codes_1.EXIT.failed : exit_codes_1.EXIT.ok;
}
//# sourceMappingURL=test-command.js.map