"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sentCount = exports.TARGET_RULES = exports.EMPTY_UNCOUNTED = exports.ATTR = exports.LISTING = void 0;
exports.targetRuleReads = targetRuleReads;
exports.writtenAttributes = writtenAttributes;
exports.attributeValues = attributeValues;
exports.targetDims = targetDims;
exports.targetsOfClass = targetsOfClass;
const value_classes_1 = require("./value-classes");
/**
 * The step's target list as far as the analysed rules tell lists apart (docs/decisions/0028-targets-by-projection.md):
 * not sent (undefined), `empty` (`targetExecutions: []`), `listed` (every target it expects listed,
 * each like the one the `attr:` dimensions describe) or `partial` (one such target listed of the
 * `totalTargetCount` it expects, when that is 2 or more).
 */
exports.LISTING = 'listing';
/** One dimension per attribute key a `targetAttributes` rule writes: the value the class's one target carries (undefined: none). */
exports.ATTR = 'attr:';
/**
 * A value of the `count` dimension besides the numbers and "not sent", there when a rule reads
 * targets: `totalTargetCount` not sent and `targetExecutions: []` (the engine counts 0 targets; a
 * target rule finds none listed of an unknown number). Any other list without a count is decided as
 * the run that sends its length, a number class, so this is the one the count alone cannot say.
 */
exports.EMPTY_UNCOUNTED = 'not sent, targetExecutions []';
/** The rule kinds that read the step's targets; each denies when one target (one value of it) does. */
exports.TARGET_RULES = new Set(['targetAttributes']);
const asObject = (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {});
/** The attribute keys a `targetAttributes` spec compares, with the values it writes for each. */
function specValues(spec) {
    const out = new Map();
    const s = asObject(spec);
    for (const part of [s.forbid, s.allowOnly])
        for (const [key, values] of Object.entries(asObject(part))) {
            const list = out.get(key) ?? [];
            if (Array.isArray(values))
                for (const v of values)
                    if (typeof v === 'string')
                        list.push(v);
            out.set(key, list);
        }
    return out;
}
/** What a target rule reads: the listing, the expected count (how many copies, whether all are listed), each key's value. */
function targetRuleReads(spec, reads) {
    reads.set(exports.LISTING, 'full');
    reads.set('count', 'full');
    for (const key of specValues(spec).keys())
        reads.set(`${exports.ATTR}${key}`, 'full');
}
/** Every attribute key the documents' `targetAttributes` rules write, with its values. */
function writtenAttributes(docs) {
    const out = new Map();
    for (const doc of docs)
        for (const rule of Array.isArray(doc.rules) ? doc.rules : [])
            for (const [kind, spec] of Object.entries(asObject(rule)))
                if (exports.TARGET_RULES.has(kind))
                    for (const [key, values] of specValues(spec))
                        out.set(key, [...(out.get(key) ?? []), ...values]);
    return out;
}
/**
 * The values of one attribute key: none (the target lacks it), each value written (compared
 * exactly: `Payments` is not `payments`) and one no set writes.
 */
function attributeValues(written) {
    return [undefined, ...new Set(written), `${value_classes_1.OTHER}-attribute-value`];
}
/**
 * The target dimensions of a space. Without a rule reading targets, a run listing targets is decided
 * as the run that sends `totalTargetCount` (their number, when it sends none) and no list, so the
 * list is left out (one value: not sent).
 */
function targetDims(docs, readTargets) {
    if (!readTargets)
        return { listing: [undefined], attributes: [] };
    return {
        listing: [undefined, 'empty', 'listed', 'partial'],
        attributes: [...writtenAttributes(docs)].map(([key, values]) => [`${exports.ATTR}${key}`, attributeValues(values)]),
    };
}
/** The `totalTargetCount` a class's run sends. */
const sentCount = (count) => (typeof count === 'number' ? count : undefined);
exports.sentCount = sentCount;
/**
 * The list a class's run sends: with a count, `listed` is as many copies of the one target as
 * `totalTargetCount` says (one when it is 0), `partial` one target, so a count of 2 or more is not
 * all listed. Each target has the step's target type, when it names one (what `targets.perType`
 * reads). Without a count, no list, or the empty one (EMPTY_UNCOUNTED): so a term that reads only
 * the count (and not the targets) is decided by the count class alone.
 */
function targetsOfClass(listing, attributes, count, type) {
    if (count === exports.EMPTY_UNCOUNTED)
        return [];
    if (listing === undefined || count === undefined)
        return undefined;
    if (listing === 'empty')
        return [];
    const attrs = attributes.flatMap(([key, value]) => (value === undefined ? [] : [{ key, value }]));
    const copies = listing === 'listed' && count > 1 ? count : 1;
    return Array.from({ length: copies }, (_, i) => ({
        name: `prove-target-${i + 1}`,
        ...(type === undefined ? {} : { type }),
        attributes: attrs,
    }));
}
//# sourceMappingURL=target-classes.js.map