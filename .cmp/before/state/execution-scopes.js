"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.scopeKey = exports.SCOPE_KINDS = void 0;
exports.executionScopes = executionScopes;
exports.serviceScopes = serviceScopes;
const state_facts_1 = require("../policy/facts/state-facts");
const action_steps_1 = require("../policy/engine/action-steps");
const attacked_values_1 = require("../policy/signals/attacked-values");
var state_facts_2 = require("../policy/facts/state-facts");
Object.defineProperty(exports, "SCOPE_KINDS", { enumerable: true, get: function () { return state_facts_2.SCOPE_KINDS; } });
Object.defineProperty(exports, "scopeKey", { enumerable: true, get: function () { return state_facts_2.scopeKey; } });
/**
 * The team, every environment (incl. an override) and every attacked service (a value of one of
 * SERVICE_KEYS on the targets the run lists) of an execution, as scope keys.
 */
function executionScopes(execution) {
    const keys = new Set();
    if (execution.teamKey)
        keys.add((0, state_facts_1.scopeKey)('team', execution.teamKey));
    if (execution.environment)
        keys.add((0, state_facts_1.scopeKey)('environment', execution.environment));
    if (execution.overrides?.environment)
        keys.add((0, state_facts_1.scopeKey)('environment', execution.overrides.environment));
    for (const key of serviceScopes(execution, state_facts_1.SERVICE_KEYS))
        keys.add(key);
    return [...keys];
}
/** The attacked services of an execution by `attributes`: `service:k8s.deployment=checkout` per distinct value. */
function serviceScopes(execution, attributes) {
    const steps = (0, action_steps_1.actionSteps)(execution.steps);
    const keys = [];
    for (const attribute of attributes)
        for (const value of (0, attacked_values_1.attackedValues)(steps, attribute).values)
            keys.push((0, state_facts_1.serviceScopeKey)(attribute, value));
    return keys;
}
//# sourceMappingURL=execution-scopes.js.map