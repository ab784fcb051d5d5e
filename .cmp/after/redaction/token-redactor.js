"use strict";
// A token goes on through letters, digits, "_", "-" and a "." between two of those: a value
// "prod" is its own token in "namespace prod." and "ns=prod", not in "production", "no-prod-runs"
// or "web-1.prod" (which, when it is a target value itself, is masked whole).
Object.defineProperty(exports, "__esModule", { value: true });
exports.tokenRedactor = tokenRedactor;
const DOT = 46;
/** A letter, digit, "_" or "-" (ASCII): a character a token goes on through. */
function isTokenChar(c) {
    return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
}
/** Nothing of a token before `i`: not a token character, nor a "." after one. */
function startsToken(text, i) {
    if (i === 0)
        return true;
    const before = text.charCodeAt(i - 1);
    return !isTokenChar(before) && !(before === DOT && i >= 2 && isTokenChar(text.charCodeAt(i - 2)));
}
/** Nothing of a token from `i` on: not a token character, nor a "." before one. */
function endsToken(text, i) {
    if (i === text.length)
        return true;
    const after = text.charCodeAt(i);
    return !isTokenChar(after) && !(after === DOT && i + 1 < text.length && isTokenChar(text.charCodeAt(i + 1)));
}
const FEW_VALUES = 64;
/**
 * Replaces every occurrence of one of `values` that is a token of its own with `replacement`,
 * scanning left to right; where several values fit at one place, the longest wins (a value that
 * contains another is replaced whole). An empty value replaces nothing.
 *
 * The same answers as one global pattern `(?<!token)(?:longest|...|shortest)(?!token)` (what this
 * was), but its cost does not grow with the number of values: at each place where a token may
 * start, one set lookup per distinct value length. A 2,000-target run has about 16,500 values; the
 * pattern (and the substring test before it, one per value and text) cost tens of milliseconds an
 * audit line. It keeps nothing between calls: one redactor per set of values (per request).
 */
function tokenRedactor(values, replacement) {
    const distinct = new Set();
    for (const v of values)
        if (v.length > 0)
            distinct.add(v.length);
    if (distinct.size === 0)
        return (text) => text;
    // Longest first: the first that fits wins.
    const lengths = [...distinct].sort((a, b) => b - a);
    /** The end of the longest value that is a token of its own at `start`, or -1. */
    const matchAt = (text, start) => {
        for (const length of lengths) {
            const end = start + length;
            if (end <= text.length && endsToken(text, end) && values.has(text.slice(start, end)))
                return end;
        }
        return -1;
    };
    // With few values (a run of a few targets, the usual case), a substring test per value is cheaper
    // than the scan, and most texts hold none of them.
    const few = values.size <= FEW_VALUES ? [...values].filter((v) => v.length > 0) : undefined;
    return (text) => {
        if (few && !few.some((v) => text.includes(v)))
            return text;
        let out = '';
        let copied = 0;
        let start = 0;
        while (start < text.length) {
            const end = startsToken(text, start) ? matchAt(text, start) : -1;
            if (end === -1) {
                start++;
                continue;
            }
            out += text.slice(copied, start) + replacement;
            copied = start = end;
        }
        return copied === 0 ? text : out + text.slice(copied);
    };
}
//# sourceMappingURL=token-redactor.js.map