"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.runEnvironments = runEnvironments;
exports.invertAliases = invertAliases;
exports.environmentSet = environmentSet;
exports.isListed = isListed;
exports.anyListed = anyListed;
exports.allListed = allListed;
const environment_names_1 = require("./environment-names");
/**
 * The environments a run touches: its environment and, if set, the (deprecated) override, each
 * with the keys a policy may name it by: the value sent (a name or an id), its Steadybit name when
 * the Platform API gave it (`names`), and every alias whose list contains either. All lower-cased.
 * With `names` but no name for a value, the environment carries why (`unknownName`).
 */
function runEnvironments(execution, directory, names) {
    const values = [];
    if (execution.environment)
        values.push(execution.environment);
    const override = execution.overrides?.environment;
    if (override && override !== execution.environment)
        values.push(override);
    return values.map((value) => {
        const lower = value.toLowerCase();
        const { aliasesById } = directory;
        const keys = new Set([lower, ...(aliasesById.get(lower) ?? [])]);
        const known = names?.[value];
        const steadybitName = known !== undefined && 'name' in known ? known.name : undefined;
        const placeholderNames = (0, environment_names_1.environmentNamesOf)(value, directory.environmentNames, steadybitName);
        if (names === undefined)
            return { value, keys, names: placeholderNames };
        if (known !== undefined && 'name' in known) {
            const name = known.name.toLowerCase();
            for (const key of [name, ...(aliasesById.get(name) ?? [])])
                keys.add(key);
            return { value, keys, names: placeholderNames };
        }
        return {
            value,
            keys,
            names: placeholderNames,
            unknownName: known?.unknown ?? `the Steadybit Platform API gave no name for environment ${value}`,
        };
    });
}
/** The aliases inverted, once per bundle at load (PolicyBundle.aliasesById), not scanned per decision. */
function invertAliases(aliases) {
    const out = new Map();
    for (const [alias, ids] of aliases) {
        for (const id of new Set(ids.map((i) => i.toLowerCase())))
            out.set(id, [...(out.get(id) ?? []), alias.toLowerCase()]);
    }
    return out;
}
/** Lower-cased set of environment names, ids or aliases listed in a policy. */
function environmentSet(list) {
    return new Set(list.map((e) => e.toLowerCase()));
}
/**
 * Whether the environment is listed: by its value, an alias, or its Steadybit name. Undefined
 * (unknown) when none of its known keys is listed but its name cannot be known: the name might be.
 */
function isListed(env, listed) {
    for (const k of env.keys)
        if (listed.has(k))
            return true;
    return env.unknownName === undefined ? false : undefined;
}
/** Whether any of the run's environments is listed (a match); undefined when that depends on a name that cannot be known. */
function anyListed(envs, listed) {
    let unknown = false;
    for (const env of envs) {
        const is = isListed(env, listed);
        if (is)
            return true;
        if (is === undefined)
            unknown = true;
    }
    return unknown ? undefined : false;
}
/** Whether every one of the run's environments is listed (an exclude, a waiver's reach); undefined when that depends on a name that cannot be known. */
function allListed(envs, listed) {
    let unknown = false;
    for (const env of envs) {
        const is = isListed(env, listed);
        if (is === false)
            return false;
        if (is === undefined)
            unknown = true;
    }
    return unknown ? undefined : true;
}
//# sourceMappingURL=environments.js.map