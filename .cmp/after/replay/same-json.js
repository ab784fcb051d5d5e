"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sameJson = sameJson;
/**
 * Whether two values have the same JSON text (JSON.stringify(a) === JSON.stringify(b)), found
 * without writing either out: same keys in the same order (keys holding undefined do not count, as
 * JSON leaves them out), same strings and numbers. `sameText` is asked about two strings that
 * differ (`a`'s first). Replay compares every archived answer this way; it allocates nothing for
 * equal values, where two JSON.stringify calls would write both out.
 */
function sameJson(a, b, sameText) {
    if (a === b)
        return true;
    if (typeof a === 'string' && typeof b === 'string')
        return sameText?.(a, b) === true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
        return false;
    if (Array.isArray(a)) {
        if (!Array.isArray(b) || a.length !== b.length)
            return false;
        for (let i = 0; i < a.length; i++)
            if (!sameJson(a[i], b[i], sameText))
                return false;
        return true;
    }
    if (Array.isArray(b))
        return false;
    return sameEntries(a, b, sameText);
}
/** Same keys in the same order with the same values, keys holding undefined skipped (one pass, no copies). */
function sameEntries(a, b, sameText) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    for (let i = 0, j = 0;; i++, j++) {
        while (i < ka.length && a[ka[i]] === undefined)
            i++;
        while (j < kb.length && b[kb[j]] === undefined)
            j++;
        if (i === ka.length || j === kb.length)
            return i === ka.length && j === kb.length;
        if (ka[i] !== kb[j] || !sameJson(a[ka[i]], b[kb[j]], sameText))
            return false;
    }
}
//# sourceMappingURL=same-json.js.map