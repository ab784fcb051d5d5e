"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sizeValue = sizeValue;
exports.emptyTally = emptyTally;
exports.tallyTargets = tallyTargets;
const NONE = Object.freeze([]);
/** `list` and `value`: an array of one is made to measure, where pushing onto `[]` reserves 17 slots. */
const withValue = (list, value) => list === NONE ? [value] : [...list, value];
/**
 * One pass over a target's attributes for every key the tally reads: a big run's attributes do not
 * fit in the CPU's cache, so each further pass over them costs as much again.
 */
function valuesOf(t, keys) {
    const values = { groups: NONE, members: NONE, sizes: NONE };
    for (const { key, value } of t.attributes ?? []) {
        if (key === keys.by)
            values.groups = withValue(values.groups, value);
        if (key === keys.member)
            values.members = withValue(values.members, value);
        if (key === keys.size)
            values.sizes = withValue(values.sizes, value);
    }
    return values;
}
/** A size attribute's value as a whole count of at least 1, else undefined (e.g. "3" but not "3.5", "-1" or "n/a"). */
function sizeValue(text) {
    if (!/^\s*\d{1,9}\s*$/.test(text))
        return undefined;
    const n = Number(text);
    return n >= 1 ? n : undefined;
}
function emptyTally() {
    return { groups: new Map(), unplaced: [] };
}
function groupFor(tally, value) {
    let g = tally.groups.get(value);
    if (!g)
        tally.groups.set(value, (g = { members: new Set(), smallest: NaN, largest: NaN, targets: 0, sized: 0, badSizes: 0 }));
    return g;
}
/** What a target without a size value sends (most targets, and every target when the rule reads no size). */
const NO_SIZES = Object.freeze({ valid: Object.freeze([]) });
function sizesOf(texts) {
    if (texts.length === 0)
        return NO_SIZES;
    const valid = [];
    let bad;
    for (const text of texts) {
        const n = sizeValue(text);
        if (n !== undefined)
            valid.push(n);
        else
            bad ??= text;
    }
    return { valid, bad };
}
function addSize(g, sent) {
    g.targets += 1;
    if (sent.bad !== undefined)
        g.badSizes += 1;
    const sizes = sent.valid;
    if (sizes.length === 0)
        return;
    g.sized += 1;
    const lo = Math.min(...sizes);
    const hi = Math.max(...sizes);
    g.smallest = Number.isNaN(g.smallest) ? lo : Math.min(g.smallest, lo);
    g.largest = Number.isNaN(g.largest) ? hi : Math.max(g.largest, hi);
}
/** A target as a message names it. */
const placeOf = (ref, t, i) => t.name ? `target ${t.name}` : `${ref.path}.targetExecutions[${i}]`;
/**
 * Adds a step's listed targets to `tally`: each target joins every group its `by` values name (a key
 * may be sent several times); the member counted is the `member` attribute's value, else the target's
 * name, else its place in the step. One pass over the targets and their attributes: linear in both.
 * A run of 10,000 targets is tallied in one decision that outlives young collections, so what is
 * made per target is only what the tally keeps or a message needs (no place named, no set of one group).
 */
function tallyTargets(tally, ref, targets, keys) {
    for (let i = 0; i < targets.length; i++) {
        const t = targets[i];
        const values = valuesOf(t, keys);
        const groups = values.groups;
        const members = keys.member === undefined ? [t.name ?? placeOf(ref, t, i)] : values.members;
        if (groups.length === 0 || members.length === 0) {
            tally.unplaced.push(placeOf(ref, t, i));
            continue;
        }
        const sizes = sizesOf(values.sizes);
        for (const value of groups.length === 1 ? groups : [...new Set(groups)]) {
            const g = groupFor(tally, value);
            for (const m of members)
                g.members.add(m);
            if (sizes.bad !== undefined)
                g.badSize ??= { where: placeOf(ref, t, i), value: sizes.bad };
            addSize(g, sizes);
        }
    }
}
//# sourceMappingURL=group-tally.js.map