"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isEnvironmentId = void 0;
exports.buildEnvironmentNames = buildEnvironmentNames;
exports.environmentNamesOf = environmentNamesOf;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Whether a value is an environment id (Steadybit sends a UUID) rather than a name. */
const isEnvironmentId = (value) => UUID.test(value);
exports.isEnvironmentId = isEnvironmentId;
function add(out, key, name) {
    const k = key.toLowerCase();
    const names = out.get(k) ?? [];
    if (!names.includes(name))
        out.set(k, [...names, name]);
}
/** The names by id and by name, from the aliases and the names the policies' scopes list (ids left out). */
function buildEnvironmentNames(aliases, listed) {
    const out = new Map();
    for (const [alias, ids] of aliases) {
        add(out, alias, alias);
        for (const id of ids)
            add(out, id, alias);
    }
    for (const name of listed)
        if (!(0, exports.isEnvironmentId)(name))
            add(out, name, name);
    return out;
}
/**
 * THE name(s) of a run's environment where a signal rule fills `{{environment}}` (gathering and
 * deciding both read this, so the facts are keyed by the same filled query): the names the policy
 * set knows for the value sent (an alias listing the id; a scope's spelling of a name sent in
 * another case), else a name sent as is. An id with no known name has none: the rule cannot decide
 * rather than ask about the id, which no alert label carries (docs/signals.md, "Placeholders").
 * `steadybitName`: the name the Steadybit Platform API gave the value (Facts.environments), used
 * when the policy set has no name of its own for it, spelled as the policies spell it.
 */
function environmentNamesOf(value, names, steadybitName) {
    const known = names.get(value.toLowerCase());
    if (known !== undefined && known.length > 0)
        return known;
    if (steadybitName !== undefined)
        return names.get(steadybitName.toLowerCase()) ?? [steadybitName];
    return (0, exports.isEnvironmentId)(value) ? [] : [value];
}
//# sourceMappingURL=environment-names.js.map