"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.runValuesOf = runValuesOf;
exports.signalRunsOf = signalRunsOf;
exports.withBlind = withBlind;
const memo_1 = require("../core/memo");
const run_values_1 = require("../signals/run-values");
const attacked_values_1 = require("../signals/attacked-values");
const target_runs_1 = require("../signals/target-runs");
/** The run's placeholder values for signal rules, one set per name of each environment it touches. */
function runValuesOf(ctx) {
    return (0, run_values_1.signalRunValues)(ctx.execution, ctx.environments);
}
/** The values of a target attribute the run acts on: built once per decision and key, never written to. */
const ATTACKED_VALUES = (0, memo_1.memoKey)('attacked values');
function attackedOf(ctx, key) {
    const memo = ctx.memo.get(ATTACKED_VALUES, () => new Map());
    let found = memo.get(key);
    if (!found)
        memo.set(key, (found = (0, attacked_values_1.attackedValues)(ctx.actionSteps, key)));
    return found;
}
/**
 * The run values a signal rule asks about: one set per environment, times each value of the target
 * attributes its `{{target.<key>}}` placeholders read (`keys`), and the reasons it cannot decide
 * (more values than MAX_TARGET_VALUES; targets without an attribute unless `whenMissing: allow`).
 */
function signalRunsOf(ctx, keys, whenMissing = 'deny') {
    const { runs, problems } = (0, target_runs_1.targetRuns)(runValuesOf(ctx), keys, (key) => attackedOf(ctx, key), whenMissing !== 'allow');
    return { runs, blind: problems.map((reason) => ({ reason, status: 'undecidable' })) };
}
/** What a signal check found and read, after the reasons its run values could not be known (`blind`). */
function withBlind(blind, checked) {
    return blind.length === 0 ? checked : { found: [...blind, ...checked.found], read: checked.read };
}
//# sourceMappingURL=signal-run-values.js.map