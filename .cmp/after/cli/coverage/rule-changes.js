"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ruleChanges = ruleChanges;
exports.branchChange = branchChange;
const node_util_1 = require("node:util");
/** A rule entry's kind: its one key (`timeWindow`). */
const kindOf = (entry) => entry !== null && typeof entry === 'object' ? Object.keys(entry)[0] : undefined;
/**
 * What a change did to each rule of one policy, given the policy's rules in the base (undefined:
 * the base has no policy of that name). A rule is unchanged when the base has the same entry (kind
 * and spec, deep-equal) at its place, or, moved, at a place no other rule took; else it is edited
 * when the base's entry at its place has the same kind, else added. Each base entry explains one
 * rule at most, so a rule repeated by the change counts as added.
 */
function ruleChanges(proposed, base) {
    const before = base ?? [];
    const free = new Set(before.keys());
    const out = proposed.map((entry, i) => {
        if (!free.has(i) || !(0, node_util_1.isDeepStrictEqual)(entry, before[i]))
            return undefined;
        free.delete(i);
        return {};
    });
    proposed.forEach((entry, i) => {
        if (out[i])
            return;
        const moved = [...free].find((j) => (0, node_util_1.isDeepStrictEqual)(entry, before[j]));
        if (moved === undefined)
            return;
        free.delete(moved);
        out[i] = {};
    });
    return proposed.map((entry, i) => {
        const known = out[i];
        if (known)
            return known;
        if (free.has(i) && kindOf(before[i]) === kindOf(entry)) {
            free.delete(i);
            return { change: 'edited', before: before[i] };
        }
        return { change: 'added' };
    });
}
/**
 * Whether a change made one window (branch) of a changed rule: every branch of an added rule; of an
 * edited one, a branch whose meaning (its label: the window and its time zone) the base rule did
 * not have. It is edited when it took the place of a base branch the rule no longer has (same name,
 * e.g. `deny[2]: inside`, a label gone), else added (a window inserted before others shifts their
 * names, not their labels). `baseBranches` are the base rule's, undefined when they cannot be read
 * (a base spec that no longer compiles): then every branch counts as the rule's change.
 */
function branchChange(rule, branch, branches, baseBranches) {
    if (rule.change === undefined)
        return undefined;
    if (rule.change === 'added' || baseBranches === undefined)
        return rule.change;
    const labels = (all) => new Set(all.map((b) => b.label));
    if (labels(baseBranches).has(branch.label))
        return undefined;
    const replaced = baseBranches.find((b) => b.name === branch.name);
    return replaced !== undefined && !labels(branches).has(replaced.label) ? 'edited' : 'added';
}
//# sourceMappingURL=rule-changes.js.map