"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.editDistance = editDistance;
exports.closest = closest;
exports.meantNames = meantNames;
exports.didYouMean = didYouMean;
exports.looksLikeTypo = looksLikeTypo;
/**
 * Edit distance (Levenshtein with adjacent transpositions, "optimal string alignment"): how many
 * letters must be added, dropped, changed or swapped to turn one text into the other.
 */
function editDistance(a, b) {
    const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
    for (let j = 1; j <= b.length; j++)
        d[0][j] = j;
    for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++) {
            const cost = a[i - 1] === b[j - 1] ? 0 : 1;
            d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
                d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
    }
    return d[a.length][b.length];
}
/** The closest of `names` to `value` (ignoring case) within `max` edits, the first on a tie. */
function closest(value, names, max = 2) {
    let best;
    for (const name of names) {
        const d = editDistance(value.toLowerCase(), name.toLowerCase());
        if (d <= max && (!best || d < best.d))
            best = { name, d };
    }
    return best?.name;
}
/**
 * What `value` may have meant among `names`: the closest within 2 edits, else the names it begins
 * (`max` -> maxPerStep, maxTotal), at least 3 letters of it; none when nothing is near.
 */
function meantNames(value, names) {
    const near = closest(value, names);
    if (near !== undefined)
        return [near];
    const start = value.toLowerCase();
    return start.length < 3 ? [] : names.filter((n) => n.toLowerCase().startsWith(start));
}
/** `: did you mean "x"?` or `: did you mean one of "x", "y"?`, or '' when nothing was meant. */
function didYouMean(meant) {
    if (meant.length === 0)
        return '';
    const quoted = meant.map((n) => JSON.stringify(n)).join(', ');
    return `: did you mean ${meant.length === 1 ? '' : 'one of '}${quoted}?`;
}
const TOKENS = /[-._/:]/;
/**
 * Whether `a` reads as a slip of the keyboard for `b` (or the other way round): one edit apart,
 * ignoring case, at least 5 characters long, and not two members of a family that differ in a
 * number (`staging-1`, `staging-2`) or in one whole short token (`zone-a`, `zone-b`).
 */
function looksLikeTypo(a, b) {
    const x = a.toLowerCase();
    const y = b.toLowerCase();
    // Lengths first: a set naming thousands of distinct names compares each with each.
    if (x === y || Math.min(x.length, y.length) < 5 || Math.abs(x.length - y.length) > 1)
        return false;
    if (editDistance(x, y) !== 1)
        return false;
    if (x.replace(/\d/g, '') === y.replace(/\d/g, ''))
        return false;
    const [tx, ty] = [x.split(TOKENS), y.split(TOKENS)];
    if (tx.length === ty.length) {
        const differing = tx.map((t, i) => [t, ty[i]]).filter(([p, q]) => p !== q);
        if (differing.length === 1 && differing[0].every((t) => t.length <= 1))
            return false;
    }
    return true;
}
//# sourceMappingURL=near-name.js.map