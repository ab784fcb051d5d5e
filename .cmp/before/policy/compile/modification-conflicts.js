"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.mayOverlap = mayOverlap;
exports.findModificationConflicts = findModificationConflicts;
const lower = (xs) => xs.map((x) => x.toLowerCase());
/** Every environment value a listed name matches: the name itself and, for an alias, its ids. */
function environmentValues(listed, aliases) {
    const byAlias = new Map([...aliases].map(([alias, ids]) => [alias.toLowerCase(), lower(ids)]));
    return new Set(lower(listed).flatMap((name) => [name, ...(byAlias.get(name) ?? [])]));
}
/**
 * Whether two match scopes may both include one run. They cannot when a field both list has no
 * value in common: teams and createdVia by value, environments by the values their names and
 * aliases stand for. Globs (experimentKeys, actionIds) are assumed to overlap.
 */
function mayOverlap(a, b, aliases = new Map()) {
    for (const f of ['teams', 'createdVia']) {
        const x = a?.[f];
        const y = b?.[f];
        if (x && y && !lower(y).some((v) => lower(x).includes(v)))
            return false;
    }
    if (a?.environments && b?.environments) {
        const x = environmentValues(a.environments, aliases);
        if (![...environmentValues(b.environments, aliases)].some((v) => x.has(v)))
            return false;
    }
    return true;
}
/**
 * Two policies that may apply to the same run and set the same property to different constant
 * values conflict: known at load time, so it is an error there rather than a surprise per run.
 * Values with placeholders are only known per run; combine() resolves those by priority.
 */
function findModificationConflicts(policies, aliases = new Map()) {
    const problems = [];
    const setters = policies.flatMap((policy) => policy.modifications
        .filter((m) => m.type === 'set_property_value' && m.constant !== undefined)
        .map((m) => ({ policy, m })));
    for (let i = 0; i < setters.length; i++) {
        for (let j = i + 1; j < setters.length; j++) {
            const a = setters[i];
            const b = setters[j];
            if (a.policy === b.policy || a.m.propertyKey !== b.m.propertyKey)
                continue;
            if (JSON.stringify(a.m.constant) === JSON.stringify(b.m.constant))
                continue;
            if (!mayOverlap(a.policy.matchSpec, b.policy.matchSpec, aliases))
                continue;
            problems.push({
                ...b.policy.source,
                path: 'modifications',
                message: `policy "${b.policy.name}" sets property "${b.m.propertyKey}" to ${JSON.stringify(b.m.constant)}, but policy "${a.policy.name}" (${a.policy.source.file}:${a.policy.source.line}) sets it to ${JSON.stringify(a.m.constant)} for runs both may apply to; narrow their match or use one value`,
                severity: 'error',
            });
        }
    }
    return problems;
}
//# sourceMappingURL=modification-conflicts.js.map