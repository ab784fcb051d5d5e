"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.testPolicyDir = testPolicyDir;
const ignored_policy_files_1 = require("../../policy/loading/ignored-policy-files");
const load_policy_dir_1 = require("../../policy/loading/load-policy-dir");
const coverage_plan_1 = require("../coverage/coverage-plan");
const coverage_recorder_1 = require("../coverage/coverage-recorder");
const coverage_report_1 = require("../coverage/coverage-report");
const served_bundle_1 = require("../../policy/runtime/served-bundle");
const load_suites_1 = require("./load-suites");
const run_suites_1 = require("./run-suites");
const invalid = (suites) => suites.some((s) => s.problems.some((p) => p.severity === 'error') || s.cases.some((c) => c.cannotRun));
function count(suites) {
    const cases = suites.flatMap((s) => s.cases);
    const passed = cases.filter((c) => c.ok).length;
    const notRun = suites.filter((s) => s.notRunReason !== undefined);
    return {
        suites: suites.length,
        failedSuites: suites.filter((s) => !s.ok).length,
        notRunSuites: notRun.length,
        cases: cases.length,
        passed,
        failed: cases.length - passed,
        notRun: notRun.reduce((n, s) => n + s.notRun, 0),
        uncountedSuites: notRun.filter((s) => s.written === null).length,
    };
}
/** Loads the policy set (with the built-in policies, as the service serves it) and every test suite in `dir`, runs the cases, and judges the whole run. */
function testPolicyDir(dir, env, now = new Date(), opts = {}) {
    const { loaded, sources } = (0, load_policy_dir_1.loadPolicyDirSources)(dir, now);
    const suites = (0, load_suites_1.loadSuites)(dir);
    const policyProblems = [...(loaded.ok ? loaded.warnings : loaded.problems), ...(0, ignored_policy_files_1.ignoredFileProblems)(dir)];
    if (!loaded.ok) {
        const reports = suites.map((s) => (0, run_suites_1.couldNotRun)({ file: s.file, name: s.name, ok: false, problems: s.problems, cases: [] }, s.written, s.problems.some((p) => p.severity === 'error')
            ? (0, run_suites_1.suiteErrorsText)(s.problems)
            : 'the policy set is invalid (see its errors above)'));
        return {
            dir,
            ok: false,
            policyProblems,
            suites: reports,
            fatal: 'the policy set is invalid, so no case ran (run `preflight-gate validate`)',
            invalidSuites: invalid(reports),
            counts: count(reports),
        };
    }
    const plan = opts.coverage ? (0, coverage_plan_1.coveragePlan)(loaded.bundle, sources, opts.coverage.base) : undefined;
    const recorder = plan ? new coverage_recorder_1.CoverageRecorder(plan) : undefined;
    const reports = (0, run_suites_1.runSuites)(suites, (0, served_bundle_1.servedBundle)(loaded.bundle, env), recorder && ((b, d) => recorder.record(b, d)));
    const counts = count(reports);
    const fatal = suites.length === 0
        ? `no policy test suites (*.test.yaml) found in ${dir}: nothing was tested`
        : counts.cases === 0
            ? 'no case ran'
            : undefined;
    const ok = fatal === undefined && counts.failedSuites === 0;
    return {
        dir,
        ok,
        revision: loaded.bundle.revision,
        policyProblems,
        suites: reports,
        fatal,
        invalidSuites: invalid(reports),
        counts,
        ...(plan && recorder
            ? {
                coverage: (0, coverage_report_1.coverageReport)(plan, recorder.tally, loaded.bundle.files, opts.coverage?.minimum, opts.coverage?.base?.dir),
            }
            : {}),
    };
}
//# sourceMappingURL=test-run.js.map