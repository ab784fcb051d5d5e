"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.literalPrefix = literalPrefix;
exports.buildPolicyIndex = buildPolicyIndex;
/** Characters a key prefix is taken from: ASCII only, where lower-casing and the glob's case folding agree. */
const PLAIN = /^[A-Za-z0-9_-]*$/;
const PLAIN_PREFIX = /^[A-Za-z0-9_-]*/;
/** The literal start every value matching the glob (case-insensitively) has; '' when there is none. */
function literalPrefix(pattern) {
    return (PLAIN_PREFIX.exec(pattern)?.[0] ?? '').toLowerCase();
}
class Buckets {
    byKey = new Map();
    /** Every policy filed here: the candidates when the run does not carry this field. */
    all = [];
    /** The longest key filed: no longer prefix of a run's key can hit a bucket. */
    longest = 0;
    file(position, keys) {
        this.all.push(position);
        for (const key of new Set(keys)) {
            this.longest = Math.max(this.longest, key.length);
            const bucket = this.byKey.get(key);
            if (bucket)
                bucket.push(position);
            else
                this.byKey.set(key, [position]);
        }
    }
}
/**
 * Policies scoped to action ids, grouped by their match scope (policies with the same scope share
 * one compiled scope): a run's steps are matched against each scope's step filter once, however many
 * policies share it, with the very test the engine skips such a policy by.
 */
class ActionIdGroups {
    byScope = new Map();
    count = 0;
    file(position, scope) {
        this.count++;
        const group = this.byScope.get(scope);
        if (group)
            group.push(position);
        else
            this.byScope.set(scope, [position]);
    }
    /**
     * The groups some action step of the run is in scope of (a step without an id is: unknown never
     * narrows a match). A run without action steps is in scope of none: such a policy is skipped.
     */
    candidates(steps, out) {
        for (const [scope, positions] of this.byScope) {
            if (steps.some((s) => scope.stepMatches(s)))
                out.push(positions);
        }
    }
}
/**
 * The most selective dimension of a scope, and the keys to file the policy under. Run-level fields
 * come first; action ids (a step filter) only for a policy scoped by nothing else.
 */
function chooseDimension(spec) {
    const prefixes = spec?.experimentKeys?.map(literalPrefix);
    if (prefixes?.every((p) => p !== ''))
        return { dimension: 'experimentKeys', keys: prefixes };
    if (spec?.teams)
        return { dimension: 'teams', keys: spec.teams.map((t) => t.toUpperCase()) };
    if (spec?.environments)
        return { dimension: 'environments', keys: spec.environments.map((e) => e.toLowerCase()) };
    if (spec?.createdVia)
        return { dimension: 'createdVia', keys: spec.createdVia.map((c) => c.toUpperCase()) };
    if (spec?.actionIds)
        return { dimension: 'actionIds' };
    return undefined;
}
/** The bucket of the run's value, or every policy filed when the run does not carry the field. */
function keyed(buckets, value, out) {
    const bucket = value === undefined ? buckets.all : buckets.byKey.get(value);
    if (bucket)
        out.push(bucket);
}
function experimentKeyCandidates(buckets, key, out) {
    if (key === undefined || !PLAIN.test(key)) {
        // Unknown never narrows; an unusual key is matched by the globs themselves, not the index.
        out.push(buckets.all);
        return;
    }
    const lower = key.toLowerCase();
    for (let end = 1; end <= Math.min(lower.length, buckets.longest); end++) {
        const bucket = buckets.byKey.get(lower.slice(0, end));
        if (bucket)
            out.push(bucket);
    }
}
/** Two ascending lists as one, each position once (a policy may be in several buckets a run hits). */
function mergeTwo(a, b) {
    const out = [];
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
        if (a[i] < b[j])
            out.push(a[i++]);
        else if (b[j] < a[i])
            out.push(b[j++]);
        else {
            out.push(a[i++]);
            j++;
        }
    }
    while (i < a.length)
        out.push(a[i++]);
    while (j < b.length)
        out.push(b[j++]);
    return out;
}
/** The union of ascending lists, ascending: merged two at a time, no sort (a run hits a handful of buckets). */
function mergeAscending(lists) {
    let merged = [];
    for (const list of lists)
        merged = mergeTwo(merged, list);
    return merged;
}
/**
 * Files every policy under its most selective match field: experiment key prefix, team,
 * environment, createdVia, or (for a policy scoped by nothing else) its action id globs.
 */
function buildPolicyIndex(policies) {
    const dims = {
        experimentKeys: new Buckets(),
        teams: new Buckets(),
        environments: new Buckets(),
        createdVia: new Buckets(),
    };
    const actionIds = new ActionIdGroups();
    const always = [];
    policies.forEach((policy, position) => {
        const chosen = chooseDimension(policy.matchSpec);
        if (!chosen)
            always.push(position);
        else if (chosen.dimension === 'actionIds')
            actionIds.file(position, policy.match);
        else
            dims[chosen.dimension].file(position, chosen.keys);
    });
    const stats = {
        filed: {
            experimentKeys: dims.experimentKeys.all.length,
            teams: dims.teams.all.length,
            environments: dims.environments.all.length,
            createdVia: dims.createdVia.all.length,
            actionIds: actionIds.count,
        },
        alwaysVisited: always.length,
    };
    return {
        stats,
        candidates(ctx) {
            const lists = [always];
            experimentKeyCandidates(dims.experimentKeys, ctx.execution.experimentKey, lists);
            keyed(dims.teams, ctx.upperCased.teamKey, lists);
            keyed(dims.createdVia, ctx.upperCased.createdVia, lists);
            actionIds.candidates(ctx.actionSteps, lists);
            if (ctx.environments.length === 0)
                lists.push(dims.environments.all);
            for (const env of ctx.environments) {
                // Its name cannot be known: any policy filed under an environment might be filed under it.
                if (env.unknownName !== undefined)
                    lists.push(dims.environments.all);
                for (const key of env.keys) {
                    const bucket = dims.environments.byKey.get(key);
                    if (bucket)
                        lists.push(bucket);
                }
            }
            return mergeAscending(lists);
        },
    };
}
//# sourceMappingURL=policy-index.js.map