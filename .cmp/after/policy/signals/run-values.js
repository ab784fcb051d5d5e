"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.signalRunValues = signalRunValues;
/**
 * The placeholder values of a run, one set per name of each environment it touches (its environment
 * and an override; environmentNamesOf): a signal rule asks about each. Gathering and deciding both
 * fill placeholders from these, so the facts are keyed by the same query. An environment id without
 * a name gets a set without `environment` (its rule cannot decide, naming the id); a run without
 * environment still gets one set.
 */
function signalRunValues(execution, environments) {
    const base = {
        team: execution.teamKey,
        experimentKey: execution.experimentKey,
        executionId: execution.id === undefined ? undefined : String(execution.id),
    };
    if (environments.length === 0)
        return [base];
    return environments.flatMap((env) => env.names.length === 0
        ? [{ ...base, unnamedEnvironment: env.value }]
        : env.names.map((environment) => ({ ...base, environment })));
}
//# sourceMappingURL=run-values.js.map