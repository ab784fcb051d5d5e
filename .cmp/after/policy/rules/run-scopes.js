"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.noScopes = void 0;
exports.runScopes = runScopes;
exports.otherRuns = otherRuns;
const state_facts_1 = require("../facts/state-facts");
const memo_1 = require("../core/memo");
const TEAM_SCOPES = (0, memo_1.memoKey)("the run's team scopes");
const ENVIRONMENT_SCOPES = (0, memo_1.memoKey)("the run's environment scopes");
/**
 * The run's own scopes of one kind (`environment` can be two, with an override), or why there are
 * none. The same for every state rule of a decision: built once per decision and kind, frozen.
 */
function runScopes(ctx, per) {
    return per === 'team'
        ? ctx.memo.get(TEAM_SCOPES, () => teamScopes(ctx))
        : ctx.memo.get(ENVIRONMENT_SCOPES, () => environmentScopes(ctx));
}
function teamScopes(ctx) {
    const team = ctx.execution.teamKey;
    if (!team)
        return Object.freeze({
            reason: 'cannot decide: the payload names no team (execution.teamKey is missing)',
            status: 'undecidable',
        });
    return Object.freeze([{ key: (0, state_facts_1.scopeKey)('team', team), label: `team ${team}` }]);
}
function environmentScopes(ctx) {
    if (ctx.environments.length === 0)
        return Object.freeze({
            reason: 'cannot decide: the payload names no environment (execution.environment is missing)',
            status: 'undecidable',
        });
    return Object.freeze(ctx.environments.map((e) => ({ key: (0, state_facts_1.scopeKey)('environment', e.value), label: `environment ${e.value}` })));
}
/** Whether the run has no scope of the kind (the value is then the violation that says why). */
const noScopes = (scopes) => !Array.isArray(scopes);
exports.noScopes = noScopes;
const NO_RUNS = Object.freeze([]);
/** Runs other than the one being preflighted (Steadybit may report its creation first); a numeric execution id is the same run as its text. */
function otherRuns(runs, ctx) {
    if (runs === undefined || runs.length === 0)
        return NO_RUNS;
    const self = ctx.execution.id === undefined ? undefined : String(ctx.execution.id);
    return runs.filter((r) => String(r.id) !== self);
}
//# sourceMappingURL=run-scopes.js.map