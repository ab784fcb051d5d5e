"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.globMatcher = globMatcher;
exports.compileGlobs = compileGlobs;
const glob_syntax_1 = require("../../syntax/glob-syntax");
const rule_spec_error_1 = require("./rule-spec-error");
const glob_regex_1 = require("../../syntax/glob-regex");
const glob_positions_1 = require("../../syntax/glob-positions");
const ASCII = /^[\u0000-\u007f]*$/;
/**
 * One glob as its tree means it (syntax/glob-tree.ts): the whole value, case folded,
 * is one of the strings the glob denotes; an empty value never matches. Never the pattern's own
 * text unless the glob denotes it (`PAY-{1..9}` does not match the key `PAY-{1..9}`).
 */
function globMatcher(nodes) {
    const source = (0, glob_regex_1.globSource)(nodes);
    const exact = source === undefined ? (0, glob_positions_1.positionsMatcher)(nodes) : regexMatcher(source);
    const texts = starTexts(nodes);
    const match = texts === undefined ? exact : starTextMatcher(texts, exact);
    return (value) => value !== '' && match(value);
}
function regexMatcher(source) {
    const regex = new RegExp(`^(?:${source})$`, 'iu');
    return (value) => regex.test(value);
}
/**
 * The texts between the stars of a glob that is only ASCII text and `*` (`*shutdown*`, `com.*.aws.*`),
 * lower-cased: `['', 'shutdown', '']`. Undefined for any other glob, and for one without a star.
 */
function starTexts(nodes) {
    const texts = [''];
    for (const node of nodes) {
        if (node.kind === 'any')
            texts.push('');
        else if (node.kind === 'text' && ASCII.test(node.text))
            texts[texts.length - 1] += node.text.toLowerCase();
        else
            return undefined;
    }
    return texts.length > 1 ? texts : undefined;
}
/**
 * Texts between stars, matched by search: without the positions matcher's sets (a glob with more
 * than one star has no regex, glob-regex.ts) and without a case-insensitive Unicode regex (one star,
 * `TEAM-1*`, `*stop`). For an ASCII value, lower-cased (its case folding, as for the
 * texts of compileGlobs), the first text starts it, the last ends it, and each text between is found
 * at its earliest place after the one before; the earliest place leaves the most room for the rest,
 * so a value the search misses matches no split. A value with other characters is left to `exact`,
 * the meaning of glob-tree.ts taken literally.
 */
function starTextMatcher(texts, exact) {
    const head = texts[0];
    const tail = texts[texts.length - 1];
    const between = texts.slice(1, -1);
    return (value) => {
        if (!ASCII.test(value))
            return exact(value);
        const folded = value.toLowerCase();
        const end = folded.length - tail.length;
        if (end < head.length || !folded.startsWith(head) || !folded.endsWith(tail))
            return false;
        let at = head.length;
        for (const text of between) {
            const found = folded.indexOf(text, at);
            if (found === -1 || found + text.length > end)
                return false;
            at = found + text.length;
        }
        return true;
    };
}
/**
 * One matcher for a list of globs. The policy schema refuses malformed globs (syntax/glob-syntax.ts)
 * before anything is compiled; one reaching here anyway is refused again, never read as a literal.
 * A glob that is only ASCII text (`ADM-1`, `google-oauth2\|931455`) is looked up in a set, lower-cased:
 * for an ASCII value lower-casing is exactly the case folding of the glob. A value with other
 * characters that misses (`ſhop-1`: `ſ` folds to `s`) is tested against those texts as a regex too.
 */
function compileGlobs(patterns) {
    const exact = new Set();
    const globs = [];
    for (const p of patterns) {
        const read = (0, glob_syntax_1.readGlob)(p);
        if (!read.ok)
            throw new rule_spec_error_1.RuleSpecError(read.problem);
        const [only] = read.nodes;
        if (read.nodes.length === 1 && only.kind === 'text' && ASCII.test(only.text))
            exact.add(only.text.toLowerCase());
        else
            globs.push(globMatcher(read.nodes));
    }
    if (exact.size === 0)
        return globs.length === 1 ? globs[0] : (value) => matchesAny(globs, value);
    const unusual = exactTexts([...exact]);
    // A hit is a match even for a value that is not ASCII: the only character that lower-cases into
    // ASCII is the Kelvin sign, and it folds to the same `k` (checked over every code point).
    return (value) => exact.has(value.toLowerCase()) || (!ASCII.test(value) && unusual(value)) || matchesAny(globs, value);
}
/** The texts as one regex, for a value that is not ASCII. */
function exactTexts(texts) {
    let regex;
    return (value) => {
        regex ??= new RegExp(`^(?:${texts.map((text) => (0, glob_regex_1.leafSource)({ kind: 'text', text })).join('|')})$`, 'iu');
        return regex.test(value);
    };
}
function matchesAny(globs, value) {
    for (const glob of globs)
        if (glob(value))
            return true;
    return false;
}
//# sourceMappingURL=glob-matcher.js.map