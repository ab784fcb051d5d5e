"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.matchesFilter = matchesFilter;
const lower = (values) => values?.map((v) => v.toLowerCase());
/**
 * Whether a target wants this notification: its kind is listed, and every other list given
 * matches (team key; environment name or id; any of its policies; any of their modes). Names
 * compare without case, as policies match them. A notification without a run (policy-rejected,
 * the emergency stop) is not held to the team and environment lists: it concerns every team.
 */
function matchesFilter(filter, n) {
    if (!filter.events.includes(n.kind))
        return false;
    const run = n.run;
    const teams = lower(filter.teams);
    if (run && teams && !teams.includes((run.team ?? '').toLowerCase()))
        return false;
    const environments = lower(filter.environments);
    if (run &&
        environments &&
        ![run.environment, run.environmentName].some((e) => e !== undefined && environments.includes(e.toLowerCase())))
        return false;
    const policies = lower(filter.policies);
    if (policies && n.policies.length > 0 && !n.policies.some((p) => policies.includes(p.policy.toLowerCase())))
        return false;
    if (filter.modes && n.policies.length > 0 && !n.policies.some((p) => filter.modes?.includes(p.mode)))
        return false;
    return true;
}
//# sourceMappingURL=target-filter.js.map