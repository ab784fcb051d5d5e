"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.serviceScopesOf = serviceScopesOf;
const state_facts_1 = require("../facts/state-facts");
const attacked_values_1 = require("../signals/attacked-values");
const missing_data_1 = require("../engine/missing-data");
const signal_run_values_1 = require("./signal-run-values");
/**
 * The services the run attacks, by the values of `by` on its targets (`per: service` cool-downs),
 * and what keeps them from being all known: targets without `by`, steps not listing their targets
 * (cannot decide, unless `denyMissing` is false). A run attacking no such service has none.
 */
function serviceScopesOf(ctx, by, denyMissing) {
    const attacked = (0, attacked_values_1.attackedValues)(ctx.actionSteps, by);
    const base = (0, signal_run_values_1.runValuesOf)(ctx);
    const services = attacked.values.map((value) => ({
        key: (0, state_facts_1.serviceScopeKey)(by, value),
        label: `service ${by}=${value}`,
        runs: base.map((run) => ({ ...run, targets: { ...run.targets, [by]: value } })),
    }));
    const blind = [];
    if (denyMissing && attacked.unlisted.length > 0)
        blind.push({
            reason: `cannot decide: ${attacked.unlisted.join(', ')} ${attacked.unlisted.length === 1 ? 'does' : 'do'} not list all targets, so the attacked ${by} values are not all known`,
            status: 'undecidable',
        });
    if (denyMissing && attacked.withoutCount > 0)
        blind.push({
            reason: `cannot decide: ${attacked.withoutCount} target${attacked.withoutCount === 1 ? '' : 's'} of the run carr${attacked.withoutCount === 1 ? 'ies' : 'y'} no ${by} (${attacked.without.join(', ')}), so the services it attacks are not all known; ${(0, missing_data_1.attributeHint)([by])}`,
            status: 'undecidable',
        });
    return { services, blind };
}
//# sourceMappingURL=service-scopes.js.map