"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.readGlob = readGlob;
exports.globProblem = globProblem;
const glob_tree_1 = require("./glob-tree");
/**
 * The glob syntax policies accept (docs/policies.md, "Globs"), read at load time into the tree the
 * matcher compiles (glob-tree.ts). A loose reader takes almost any text as some pattern: an unclosed
 * `[` or `{` as a literal character, a reversed range `[z-a]` as a class of nothing. In a `blocked`
 * list either typo would disable the guardrail, so anything outside this grammar is a load error
 * naming the column:
 *
 *   `*` `**` `?`                any characters / one character
 *   `[abc]` `[a-z]` `[^a-z]`    a class: non-empty, ranges ascending, `[:alpha:]` and the other POSIX names
 *   `{a,b}` `{1..9}` `{a..f}`   alternatives (two or more, none empty, may nest) or a range
 *   `@(a|b)` `!(a)` `*(a)` `+(a)` `?(a)`   extglobs: alternatives separated by `|`, none empty
 *   `\x`                        the character x itself
 *
 * Refused as ambiguous: a bare `(`, a `|` outside an extglob, a leading `!` (it would read as
 * negating the whole pattern), `[!...]` (write `[^...]`), whitespace at either end, any unmatched
 * `]`, `}` or `)`, and a range of more than MAX_RANGE_VALUES values. Why: docs/decisions/0014-strict-policy-strings.md.
 */
const EXTGLOB = '@!*+?';
class GlobSyntaxError extends Error {
}
const fail = (message) => {
    throw new GlobSyntaxError(message);
};
const col = (i) => `column ${i + 1}`;
/** The character (a whole code point) at `i`. */
const charAt = (p, i) => i < p.length ? String.fromCodePoint(p.codePointAt(i)) : undefined;
const code = (c) => c.codePointAt(0);
/** Reads a class `[...]` starting at `start`: the class and the index after its `]`. */
function readClass(p, start) {
    const ranges = [];
    let j = start + 1;
    if (p[j] === '!')
        fail(`"[!" at ${col(start)} is not a negation here (it matches "!"); write [^...] for "none of"`);
    const negated = p[j] === '^';
    if (negated)
        j++;
    if (p[j] === ']')
        fail(`the character class at ${col(start)} is empty; write \\[\\] for the literal text "[]"`);
    while (j < p.length && p[j] !== ']') {
        if (p.startsWith('[:', j)) {
            const end = p.indexOf(':]', j + 2);
            const name = end < 0 ? '' : p.slice(j + 2, end);
            const members = glob_tree_1.POSIX_CLASSES.get(name);
            if (!members)
                fail(`unknown character class "${end < 0 ? p.slice(j) : p.slice(j, end + 2)}" at ${col(j)}; known: ${[...glob_tree_1.POSIX_CLASSES.keys()].map((c) => `[:${c}:]`).join(' ')}`);
            ranges.push(...members);
            j = end + 2;
            continue;
        }
        const [low, next] = classChar(p, j);
        if (low === undefined)
            break;
        if (p[next] === '-' && next + 1 < p.length && p[next + 1] !== ']') {
            const [high, after] = classChar(p, next + 1);
            if (high === undefined)
                break;
            if (code(low) > code(high))
                fail(`the range "${low}-${high}" at ${col(j)} is reversed (nothing lies between); write ${high}-${low}`);
            ranges.push([code(low), code(high)]);
            j = after;
        }
        else {
            ranges.push([code(low), code(low)]);
            j = next;
        }
    }
    if (j >= p.length)
        fail(`the [ at ${col(start)} is never closed; write \\[ for a literal [`);
    return [{ kind: 'class', negated, ranges }, j + 1];
}
/** One character of a class at `j` (`\x` is x), and the index after it. */
function classChar(p, j) {
    const escaped = p[j] === '\\';
    const c = charAt(p, escaped ? j + 1 : j);
    return [c, (escaped ? j + 1 : j) + (c?.length ?? 1)];
}
const opened = (open, p) => open.char === '{' ? `{ at ${col(open.at)}` : `${p[open.at - 1]}( at ${col(open.at - 1)}`;
/** Ends the current alternative of `open` at `i` (a separator or the closer): it may not be empty. */
function endAlternative(open, i, p) {
    const closer = open.char === '{' ? '}' : ')';
    const empty = open.current.length === 0;
    if (empty && open.alternatives.length === 0 && p[i] === closer)
        fail(`the ${opened(open, p)} is empty`);
    if (empty)
        fail(`empty alternative at ${col(i)} in the ${opened(open, p)}`);
    open.alternatives.push(open.current);
    open.current = [];
}
/** The node a closed `{...}` stands for: a range, or two or more alternatives. */
function braceNode(o, p, i) {
    const body = p.slice(o.at + 1, i);
    if (o.alternatives.length > 1)
        return { kind: 'oneOf', alternatives: o.alternatives };
    const values = (0, glob_tree_1.rangeValues)(body);
    if (values === undefined)
        fail(`the {${body}} at ${col(o.at)} has a single alternative (it would match the braces literally); write {a,b}, a range such as {1..5}, or \\{ for a literal {`);
    if (!Array.isArray(values))
        fail(`the range {${body}} at ${col(o.at)} has ${values.tooMany} values (at most ${glob_tree_1.MAX_RANGE_VALUES}); write a class such as [0-9] or a * for a wider one`);
    return { kind: 'oneOf', alternatives: values.map((text) => [{ kind: 'text', text }]) };
}
function extglobNode(o) {
    const alternatives = o.alternatives;
    if (o.op === '@')
        return { kind: 'oneOf', alternatives };
    if (o.op === '!')
        return { kind: 'noneOf', alternatives };
    if (o.op === '?')
        return { kind: 'repeat', min: 0, max: 1, alternatives };
    return { kind: 'repeat', min: o.op === '+' ? 1 : 0, max: Number.POSITIVE_INFINITY, alternatives };
}
/** Appends a node, merging text with the text before it and `**` into one `*`. */
function append(seq, node) {
    const last = seq[seq.length - 1];
    if (node.kind === 'text' && last?.kind === 'text')
        seq[seq.length - 1] = { kind: 'text', text: last.text + node.text };
    else if (!(node.kind === 'any' && last?.kind === 'any'))
        seq.push(node);
}
function parse(p) {
    if (p.trim() !== p)
        fail('it starts or ends with whitespace, which no id or key has');
    if (p[0] === '!' && p[1] !== '(')
        fail('a leading "!" negates the whole pattern (it would match everything else); list what you mean, or use !(...) inside a pattern');
    const root = [];
    const stack = [];
    const top = () => stack[stack.length - 1];
    /** A node of the current alternative (or of the whole pattern outside any group). */
    const add = (node) => append(top()?.current ?? root, node);
    for (let i = 0; i < p.length;) {
        const c = p[i];
        if (c === '\\') {
            const escaped = charAt(p, i + 1);
            if (escaped === undefined)
                fail('it ends with a lone backslash; write \\\\ for a literal backslash');
            add({ kind: 'text', text: escaped });
            i += 1 + escaped.length;
        }
        else if (c === '[') {
            const [node, next] = readClass(p, i);
            add(node);
            i = next;
        }
        else if (EXTGLOB.includes(c) && p[i + 1] === '(') {
            stack.push({ char: '(', op: c, at: i + 1, alternatives: [], current: [] });
            i += 2;
        }
        else if (c === '(') {
            fail(`the ( at ${col(i)} is not an extglob; write @(a|b) for alternatives or \\( for a literal (`);
        }
        else if (c === '{') {
            stack.push({ char: '{', op: '', at: i, alternatives: [], current: [] });
            i++;
        }
        else if (c === ',' && top()?.char === '{') {
            endAlternative(top(), i, p);
            i++;
        }
        else if (c === '|') {
            const open = top();
            if (open?.char !== '(')
                fail(`"|" at ${col(i)} is not inside an extglob; write @(a|b) or {a,b} for alternatives, \\| for a literal |`);
            endAlternative(open, i, p);
            i++;
        }
        else if (c === '}' || c === ')') {
            const want = c === '}' ? '{' : '(';
            const open = top();
            if (open?.char !== want)
                fail(`the ${c} at ${col(i)} has no matching ${want}; write \\${c} for a literal ${c}`);
            const o = open;
            endAlternative(o, i, p);
            stack.pop();
            add(c === '}' ? braceNode(o, p, i) : extglobNode(o));
            i++;
        }
        else if (c === ']') {
            fail(`the ] at ${col(i)} has no matching [; write \\] for a literal ]`);
        }
        else if (c === '*' || c === '?') {
            add({ kind: c === '*' ? 'any' : 'one' });
            i++;
        }
        else {
            const text = charAt(p, i);
            add({ kind: 'text', text });
            i += text.length;
        }
    }
    const open = stack.pop();
    if (open)
        fail(`the ${opened(open, p)} is never closed; write \\${open.char} for a literal ${open.char}`);
    return root;
}
/** The glob as a tree, or why it is not a glob we accept (a sentence for a load error). */
function readGlob(pattern) {
    try {
        return { ok: true, nodes: parse(pattern) };
    }
    catch (err) {
        if (err instanceof GlobSyntaxError)
            return { ok: false, problem: `malformed glob "${pattern}": ${err.message}` };
        throw err;
    }
}
/** Why `pattern` is not a glob we accept (a sentence for a load error), or undefined when it is. */
function globProblem(pattern) {
    const read = readGlob(pattern);
    return read.ok ? undefined : read.problem;
}
//# sourceMappingURL=glob-syntax.js.map