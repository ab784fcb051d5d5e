"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TEST_DECISION_ID = void 0;
exports.couldNotRun = couldNotRun;
exports.suiteErrorsText = suiteErrorsText;
exports.runSuites = runSuites;
const facts_1 = require("../../policy/facts/facts");
const decide_1 = require("../../policy/engine/decide");
const quiet_facts_1 = require("../../policy/facts/quiet-facts");
const load_error_1 = require("../../policy/compile/load-error");
const near_name_1 = require("../../policy/compile/near-name");
const check_case_1 = require("./check-case");
const guard_view_1 = require("../../guard/guard-view");
const judge_running_run_1 = require("../../guard/judge-running-run");
const prepare_case_1 = require("./prepare-case");
const field_path_1 = require("../../validation/field-path");
/** Decisions in test runs carry this id, so messages and modifications are reproducible. */
exports.TEST_DECISION_ID = 'test';
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
/** The report of a suite none of whose cases ran: why, and its cases counted as not run (none when unknown). */
function couldNotRun(base, written, reason) {
    return { ...base, notRunReason: reason, notRun: written ?? 0, written };
}
/** Why a suite with errors ran no case: its own errors, listed under it. */
function suiteErrorsText(problems) {
    const errors = problems.filter((p) => p.severity === 'error').length;
    return `the suite file has ${plural(errors, 'error')} (below)`;
}
/**
 * Names in `expect` that are not policies of the bundle: a misspelt name must not pass quietly. Each
 * gets the did-you-mean of every other misspelt name (near-name.ts): the closest policy of the set.
 */
function unknownPolicies(suite, doc, bundle) {
    const names = bundle.policies.map((p) => p.name);
    const known = new Set(names);
    // A large set is named by its first policies: the did-you-mean names the one meant.
    const knownText = names.length > 20 ? `${names.slice(0, 20).join(', ')} and ${names.length - 20} more` : names.join(', ');
    const out = [];
    const flag = (name, path) => {
        if (known.has(name))
            return;
        out.push({
            file: suite.file,
            ...suite.locate(path),
            path: (0, field_path_1.pathText)(path),
            message: `policy "${name}" does not exist in this policy set${(0, near_name_1.didYouMean)((0, near_name_1.meantNames)(name, names))} (known: ${knownText})`,
            severity: 'error',
        });
    };
    doc.cases.forEach((c, i) => {
        for (const key of ['denied', 'warned', 'audited'])
            (c.expect[key] ?? []).forEach((n, j) => flag(n, ['cases', i, 'expect', key, j]));
        for (const n of Object.keys(c.expect.results ?? {}))
            flag(n, ['cases', i, 'expect', 'results', n]);
    });
    return out;
}
/**
 * Why a case cannot run, as a problem of its suite: a bad edit where it is written
 * (`cases[2].patch.execution.enviroment`), any other input (an unreadable payload or signals file,
 * malformed state) at the case.
 */
function cannotRunProblem(suite, caseIndex, err) {
    const edit = err instanceof prepare_case_1.CaseInputError;
    const path = edit
        ? [...(err.origin === 'case' ? ['cases', caseIndex] : ['defaults']), ...err.path]
        : ['cases', caseIndex];
    const at = edit ? suite.locate(path, 'key') : suite.locate(path);
    return { file: suite.file, ...at, path: (0, field_path_1.pathText)(path), message: err.message, severity: 'error' };
}
/** The case's failure line: a bad edit with where it is written (`file:line:col cases[2].patch...: ...`), else the reason. */
const cannotRunText = (p, edit) => `cannot run: ${edit ? (0, load_error_1.formatProblem)(p) : p.message}`;
const ignore = () => undefined;
function runSuite(suite, bundle, cache, guarded, observe, cannotRun) {
    const problems = [...suite.problems];
    const doc = suite.doc;
    const cases = [];
    if (doc && !problems.some((p) => p.severity === 'error')) {
        problems.push(...unknownPolicies(suite, doc, bundle));
        doc.cases.forEach((c, i) => {
            const at = suite.locate(['cases', i]);
            const started = performance.now();
            const seconds = () => (performance.now() - started) / 1000;
            try {
                const prepared = (0, prepare_case_1.prepareCase)(suite.file, doc.defaults, c, cache);
                // Without state: the facts of a freshly started service, as `eval` decides without --state;
                // without signals, signal rules cannot decide, as `eval` without --signals; without
                // environment names, none (as without the Platform API), as `eval` without --environments.
                if (c.whileRunning) {
                    const view = guarded();
                    const judged = (0, judge_running_run_1.judgeRunningRun)(view, prepared.payload, (0, quiet_facts_1.givenFacts)(view.needs, prepared), prepared.now, exports.TEST_DECISION_ID);
                    observe(view, judged.decision);
                    const failures = (0, check_case_1.checkJudgement)(c.expect, judged);
                    cases.push({
                        name: c.name,
                        ...at,
                        ok: failures.length === 0,
                        failures,
                        message: judged.stop ? `stopped: ${judged.decision.message}` : 'keeps running',
                        seconds: seconds(),
                    });
                    return;
                }
                const facts = (0, facts_1.doorFacts)((0, quiet_facts_1.givenFacts)(bundle.needs, prepared));
                const decision = (0, decide_1.decide)(bundle, prepared.payload, facts, prepared.now, {
                    decisionId: exports.TEST_DECISION_ID,
                    fullScan: true,
                });
                observe(bundle, decision);
                const failures = (0, check_case_1.checkCase)(c.expect, decision);
                cases.push({
                    name: c.name,
                    ...at,
                    ok: failures.length === 0,
                    failures,
                    message: decision.message,
                    seconds: seconds(),
                });
            }
            catch (err) {
                const problem = cannotRunProblem(suite, i, err);
                cannotRun(problem);
                cases.push({
                    name: c.name,
                    ...at,
                    ok: false,
                    failures: [cannotRunText(problem, err instanceof prepare_case_1.CaseInputError)],
                    cannotRun: true,
                    seconds: seconds(),
                });
            }
        });
    }
    if (cases.length === 0 && !problems.some((p) => p.severity === 'error')) {
        problems.push({
            file: suite.file,
            line: 1,
            col: 1,
            path: '',
            message: 'no case ran: a suite without cases proves nothing',
            severity: 'error',
        });
    }
    const ok = cases.length > 0 && cases.every((c) => c.ok) && !problems.some((p) => p.severity === 'error');
    const base = { file: suite.file, name: suite.name, ok, problems, cases };
    return cases.length === 0
        ? couldNotRun(base, suite.written, suiteErrorsText(problems))
        : { ...base, notRun: 0, written: suite.written };
}
/**
 * Runs every suite against the bundle (the served one: with the built-in policies). Pure apart from
 * reading payload files. `cannotRun` is told why each case that cannot run as written cannot (validate reports it).
 */
function runSuites(suites, bundle, observe = ignore, cannotRun = () => undefined) {
    const cache = new Map();
    let view;
    const guarded = () => (view ??= (0, guard_view_1.guardView)(bundle));
    return suites.map((s) => runSuite(s, bundle, cache, guarded, observe, cannotRun));
}
//# sourceMappingURL=run-suites.js.map