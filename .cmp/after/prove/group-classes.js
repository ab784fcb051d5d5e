"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.freshGroup = exports.MAX_LAYOUTS = exports.LAYOUT = void 0;
exports.groupSpecOutside = groupSpecOutside;
exports.groupSpecs = groupSpecs;
exports.groupLayouts = groupLayouts;
exports.layoutsRead = layoutsRead;
exports.layoutSizes = layoutSizes;
exports.layoutTargets = layoutTargets;
const target_classes_1 = require("./target-classes");
const value_classes_1 = require("./value-classes");
/*
 * Target lists for the rules that count targets together: `perGroup` (docs/decisions/0039-groups-of-targets.md).
 * One target per class (0028) cannot show a group of three pods; a class of this dimension is a
 * **layout**: a few distinct targets, each carrying one value (or none) of every key the rules read,
 * the shapes perGroup can count: one group of as many targets as a cap written plus one (or one
 * target), or as many singleton groups as a maxGroups written plus one.
 */
/** The dimension of the layouts, there instead of the `attr:<key>` ones when an analysed perGroup rule is written. */
exports.LAYOUT = 'targets';
/** Past this many layouts the perGroup rules stay beyond the analysis (every layout is a class of every target rule). */
exports.MAX_LAYOUTS = 2_000;
const asObject = (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {});
/** Why a perGroup spec is beyond the analysis, or undefined when its caps are counted by the layouts. */
function groupSpecOutside(spec) {
    const s = asObject(spec);
    if (s.member !== undefined)
        return `member (counting distinct values of ${String(s.member)}) is not analysed`;
    if (s.maxShare !== undefined)
        return "maxShare (a share of each group's size) is not analysed";
    return undefined;
}
/** The analysed perGroup specs the documents write. */
function groupSpecs(docs) {
    const out = [];
    for (const doc of docs)
        for (const rule of Array.isArray(doc.rules) ? doc.rules : []) {
            const spec = asObject(asObject(rule).perGroup);
            if (typeof spec.by !== 'string' || groupSpecOutside(spec) !== undefined)
                continue;
            out.push({
                by: spec.by,
                ...(typeof spec.maxTargets === 'number' ? { maxTargets: spec.maxTargets } : {}),
                ...(typeof spec.maxGroups === 'number' ? { maxGroups: spec.maxGroups } : {}),
            });
        }
    return out;
}
/** A value of the `by` key no rule writes: the i-th group of a layout that names none written. */
const freshGroup = (i) => `${value_classes_1.OTHER}-group-${i}`;
exports.freshGroup = freshGroup;
/** Every choice of one value per key: the product of the keys' classes. */
function combinations(keys) {
    let out = [[]];
    for (const [key, values] of keys)
        out = out.flatMap((c) => values.map((v) => [...c, [key, v]]));
    return out;
}
/** The multisets of `size` items of `0..n-1` (non-decreasing index lists), at most `limit + 1` of them. */
function multisets(n, size, limit) {
    const out = [];
    const pick = (from, acc) => {
        if (out.length > limit)
            return;
        if (acc.length === size) {
            out.push(acc);
            return;
        }
        for (let i = from; i < n; i++)
            pick(i, [...acc, i]);
    };
    pick(0, []);
    return out;
}
/**
 * The layouts of the documents' analysed perGroup rules, or why there are too many (or none: no such
 * rule). All of them must group by one key: a layout's copies share every value, so a group under
 * one key would be a group under another too, which a real run need not be.
 */
function groupLayouts(docs) {
    const specs = groupSpecs(docs);
    if (specs.length === 0)
        return {};
    const bys = [...new Set(specs.map((s) => s.by))];
    if (bys.length > 1)
        return { why: `perGroup rules group by different attributes (${bys.join(', ')}), not analysed together` };
    const [by] = bys;
    const written = (0, target_classes_1.writtenAttributes)(docs);
    const byWritten = [...new Set(written.get(by) ?? [])];
    const others = combinations([...written].filter(([key]) => key !== by).map(([key, values]) => [key, (0, target_classes_1.attributeValues)(values)]));
    const counts = [...new Set([1, ...specs.flatMap((s) => (s.maxTargets === undefined ? [] : [s.maxTargets + 1]))])];
    const sizes = [...new Set(specs.flatMap((s) => (s.maxGroups === undefined ? [] : [s.maxGroups + 1])))];
    const layouts = [];
    const group = (count, value, rest) => ({
        count,
        attributes: [[by, value], ...rest],
    });
    // One group of `count` targets (one target may carry no `by` value: it cannot be placed).
    for (const count of counts)
        for (const value of [...(count === 1 ? [undefined] : []), ...byWritten, (0, exports.freshGroup)(1)])
            for (const rest of others)
                layouts.push({ groups: [group(count, value, rest)] });
    // As many singleton groups as a maxGroups allows plus one: each a written value (once) or a fresh one.
    const kinds = [...byWritten, undefined].flatMap((value) => others.map((rest) => ({ value, rest })));
    for (const size of sizes) {
        for (const picked of multisets(kinds.length, size, exports.MAX_LAYOUTS)) {
            const values = picked.map((i) => kinds[i].value);
            const named = values.filter((v) => v !== undefined);
            if (new Set(named).size < named.length)
                continue;
            let fresh = 0;
            layouts.push({
                groups: picked.map((i) => group(1, kinds[i].value ?? (0, exports.freshGroup)(++fresh), kinds[i].rest)),
                oneName: true,
            });
        }
        if (layouts.length > exports.MAX_LAYOUTS)
            break;
    }
    if (layouts.length > exports.MAX_LAYOUTS)
        return { why: `perGroup by ${by} needs more than ${exports.MAX_LAYOUTS} target layouts (its caps and the values written)` };
    return { layouts };
}
/** The layouts, when a term reads them (groupedTerms, group-terms.ts, moved it to them), else undefined. */
function layoutsRead(docs, terms) {
    if (!terms.some((t) => t.reads.has(exports.LAYOUT)))
        return undefined;
    const { layouts, why } = groupLayouts(docs);
    if (layouts === undefined)
        throw new Error(`target layouts read but not made: ${why ?? 'no perGroup rule'}`);
    return layouts;
}
/** How many distinct targets the layouts list: each a count class's bound, so that `partial` (fewer listed than expected) holds in every class it can. */
function layoutSizes(layouts) {
    const sizes = new Set();
    for (const l of layouts ?? [])
        sizes.add(l.groups.reduce((n, g) => n + g.count, 0));
    return [...sizes];
}
/**
 * The list a layout's run sends, as targetsOfClass (target-classes.ts) for one target: none without
 * a count (the empty list for EMPTY_UNCOUNTED), else each group's targets, distinct by name; with
 * every target listed, copies of the first target (its name too) up to `totalTargetCount`, which
 * perGroup counts once and targetAttributes reads as that target, so a run expecting 10,001 targets
 * lists them. `partial` lists the layout's targets alone.
 */
function layoutTargets(layout, listing, count, type) {
    if (count === target_classes_1.EMPTY_UNCOUNTED)
        return [];
    if (listing === undefined || count === undefined)
        return undefined;
    if (listing === 'empty')
        return [];
    const targets = [];
    for (const g of layout.groups) {
        const attributes = g.attributes.flatMap(([key, value]) => (value === undefined ? [] : [{ key, value }]));
        for (let i = 0; i < g.count; i++)
            targets.push({
                name: `prove-target-${layout.oneName ? 1 : targets.length + 1}`,
                ...(type === undefined ? {} : { type }),
                attributes,
            });
    }
    const [first] = targets;
    if (listing === 'listed')
        while (targets.length < count)
            targets.push(first);
    return targets;
}
//# sourceMappingURL=group-classes.js.map