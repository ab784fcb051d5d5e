"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.suiteProblems = suiteProblems;
const run_suites_1 = require("./run-suites");
/**
 * What `validate` reports of the suites: on a valid policy set, every problem `test` would refuse
 * them for (their own, an expectation naming no policy of the set, a case whose payload, signals
 * or state cannot be read), found by running them as `test` does; else their own problems only.
 */
function suiteProblems(suites, bundle) {
    if (bundle === undefined)
        return suites.flatMap((s) => s.problems);
    const cannotRun = [];
    const reports = (0, run_suites_1.runSuites)(suites, bundle, undefined, (p) => cannotRun.push(p));
    return [...reports.flatMap((r) => r.problems), ...oncePerReason(cannotRun)];
}
/**
 * One problem per reason and suite file: a payload file the defaults name that cannot be read stops
 * every case, said once at the first with how many more it stops (`test` lists each case).
 */
function oncePerReason(problems) {
    const first = new Map();
    for (const p of problems) {
        const key = `${p.file}\n${p.message}`;
        const seen = first.get(key);
        if (seen)
            seen.more += 1;
        else
            first.set(key, { problem: p, more: 0 });
    }
    return [...first.values()].map(({ problem, more }) => more === 0
        ? problem
        : { ...problem, message: `${problem.message} (and ${more} more case${more === 1 ? '' : 's'})` });
}
//# sourceMappingURL=suite-problems.js.map