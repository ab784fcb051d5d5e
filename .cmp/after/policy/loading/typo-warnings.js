"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.typoWarnings = typoWarnings;
const near_name_1 = require("../compile/near-name");
const warning = (at, message) => ({
    file: at.file,
    line: at.line,
    col: at.col,
    path: at.path,
    message,
    severity: 'warning',
});
/** How often each spelling is written, ignoring case, and its first spelling as written. */
function counts(written) {
    const n = new Map();
    for (const w of written) {
        const seen = n.get(w.text.toLowerCase());
        if (seen)
            seen.n++;
        else
            n.set(w.text.toLowerCase(), { n: 1, as: w.text });
    }
    return n;
}
/**
 * The spelling `text` is most likely a slip for: a known name one edit away, else one written at
 * least as often in the set, a preferred name counting half a time more (a tie when as often: then
 * neither can be told to be the slip).
 */
function likelyMeant(text, family, written) {
    const known = family.known;
    const bonus = (name) => (family.preferred?.has(name) ? 0.5 : 0);
    const own = (written.get(text.toLowerCase())?.n ?? 0) + bonus(text.toLowerCase());
    let best;
    for (const name of new Set([...known, ...written.keys()])) {
        if (!(0, near_name_1.looksLikeTypo)(text, name))
            continue;
        const count = written.get(name)?.n ?? 0;
        const weight = known.has(name) ? Infinity : count + bonus(name);
        const shown = written.get(name)?.as ?? name;
        if (weight >= own && (!best || weight > best.weight))
            best = { name: known.has(name) ? name : shown, weight, count };
    }
    return best && { name: best.name, tie: best.weight === own, count: best.count };
}
const times = (n) => (n === 1 ? 'once' : `${n} times`);
/**
 * Warnings for the names of one family that validate but are likely typos: a name not known itself
 * that is one edit away from a known one or from one the set writes at least as often. Of two
 * spellings written equally often, both places are warned and named, and neither is told to become
 * the other.
 */
function typoWarnings(family) {
    const written = new Map([...counts(family.written)].filter(([text]) => !family.known.has(text)));
    const answers = new Map();
    const out = [];
    for (const w of family.written) {
        const text = w.text.toLowerCase();
        if (family.known.has(text) || family.skip?.(w.text))
            continue;
        if (!answers.has(text))
            answers.set(text, likelyMeant(w.text, family, written));
        const meant = answers.get(text);
        if (meant === undefined)
            continue;
        const fix = w.fix ?? ((m) => m);
        out.push(warning(w.at, meant.tie
            ? `${w.subject} and "${meant.name}" differ by one letter and the set writes each ${times(meant.count)}: one of them is likely misspelt, use one spelling (${family.cost})`
            : `${w.subject} is one letter away from "${meant.name}", ${family.known.has(meant.name) ? family.knownAs(meant.name) : 'which the set names elsewhere'}: did you mean "${fix(meant.name)}"? (${family.cost})`));
    }
    return out;
}
//# sourceMappingURL=typo-warnings.js.map