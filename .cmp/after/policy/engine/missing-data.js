"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_PER_STEP = void 0;
exports.attributeHint = attributeHint;
exports.capped = capped;
/** What the preflight webhook must send for attribute rules, said the same way everywhere. */
function attributeHint(keys) {
    const list = keys.join(', ');
    return `add ${list} to the preflight webhook's targetAttributeIncludes (or "*" for all attributes) so Steadybit sends ${keys.length === 1 ? 'it' : 'them'}, or set whenMissing: allow`;
}
/** Most violations one step reports; the rest are summed up in one more line. */
exports.MAX_PER_STEP = 10;
/** Keeps the first MAX_PER_STEP items and says how many more there were. */
function capped(items, more) {
    if (items.length <= exports.MAX_PER_STEP)
        return items;
    return [...items.slice(0, exports.MAX_PER_STEP), more(items.length - exports.MAX_PER_STEP)];
}
//# sourceMappingURL=missing-data.js.map