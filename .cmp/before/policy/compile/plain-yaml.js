"use strict";
/**
 * The plain shape most policy files are written in, read without the `yaml` library's parser:
 * block mappings and sequences, plain and simply quoted scalars, one-line flow sequences of them,
 * comments, `---` between documents. Anything else (block scalars `|`, anchors, tags, flow mappings,
 * escapes, a tab, a duplicate key, a number that is not plain decimal, an indentation it does not
 * expect) gives `undefined`, and the caller parses the text with `yaml` as before: this reader
 * never decides what a text it is unsure of means, and never reports an error. What it returns is
 * the value `yaml` gives for the same text (YAML 1.2 core schema; test/policy/plain-yaml.test.ts
 * compares the two on every policy file of the repository and on the generated sets).
 *
 * Why: `yaml` builds a concrete syntax tree and a Document with source positions for every node,
 * and its plain `parse` builds them too: for the 10,000 files of the generated benchmark set (3.4 MB)
 * that was 70% of loading them (measured on Node 26.12.1: 1.5-1.9 s of CPU; `parse` alone 1.6-1.8 s;
 * this reader 0.2 s). Positions are only needed to explain a problem, and then the file is parsed
 * by `yaml` (yaml-source.ts, docs/decisions/0026-plain-yaml-first.md).
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.parsePlainYaml = parsePlainYaml;
/** Thrown inside the reader when the text leaves the plain shape; never escapes it. */
class NotPlain extends Error {
}
const notPlain = () => {
    throw new NotPlain();
};
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_./-]*$/;
const NULLS = new Set(['~', 'null', 'Null', 'NULL']);
const BOOLS = { true: true, True: true, TRUE: true, false: false, False: false, FALSE: false };
const INT = /^[-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
/** A plain scalar may not start with an indicator (and `-`, `?`, `:` are left to `yaml` too). */
const INDICATOR_START = /^[-?:,[\]{}#&*!|>'"%@`]/;
/** A scalar as the core schema resolves it; `inFlow` forbids what flow context would read otherwise. */
function scalar(text, inFlow) {
    const first = text[0];
    if (first === '"') {
        const end = text.indexOf('"', 1);
        if (end !== text.length - 1 || text.includes('\\'))
            notPlain();
        return text.slice(1, -1);
    }
    if (first === "'") {
        const inner = text.slice(1, -1);
        if (text.length < 2 || text[text.length - 1] !== "'" || inner.replaceAll("''", '').includes("'"))
            notPlain();
        return inner.replaceAll("''", "'");
    }
    if (text === '' || (INDICATOR_START.test(text) && !/^-[0-9.]/.test(text)))
        notPlain();
    // `: ` would start a mapping, ` #` a comment (already cut), `:` at the end a key.
    if (text.includes(': ') || text.endsWith(':') || (inFlow && /[[\]{},]/.test(text)))
        notPlain();
    if (NULLS.has(text))
        return null;
    if (Object.hasOwn(BOOLS, text))
        return BOOLS[text];
    // Plain decimal numbers (the core schema's int and float); what else starts like a number is a
    // string (`30m`, `09:00`, `2026-12-31`: no timestamps in YAML 1.2) but 0o, 0x, .inf, .nan and
    // integers too long for a double to hold exactly, which are `yaml`'s to read.
    if (INT.test(text))
        return text.replace(/^[-+]/, '').length <= 15 ? Number.parseFloat(text) : notPlain();
    if (FLOAT.test(text))
        return Number.parseFloat(text);
    if (/^[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)$/.test(text) || /^[-+]?0[oOxX]/.test(text))
        notPlain();
    return text;
}
/** Cuts a trailing comment (` #...`) off a line's text; a `#` inside quotes leaves the line to `yaml`. */
function withoutComment(text) {
    const hash = text.search(/(^|\s)#/);
    if (hash < 0)
        return text.trimEnd();
    const before = text.slice(0, hash);
    if (before.includes('"') || before.includes("'")) {
        // A quote before the comment: only a value that closes its quote before it is plain.
        const quoted = /^(?:[^"']*?)(["'])[^"']*\1\s*$/.test(before) || /^[^"']*$/.test(before);
        if (!quoted)
            notPlain();
    }
    return before.trimEnd();
}
function linesOf(text) {
    if (text.includes('\t') || text.includes('\r') || text.charCodeAt(0) === 0xfeff)
        notPlain();
    const out = [];
    const raw = text.split('\n');
    for (let i = 0; i < raw.length; i++) {
        const line = raw[i];
        if (line === '---') {
            out.push('---');
            continue;
        }
        const indent = line.length - line.trimStart().length;
        const rest = line.slice(indent);
        if (rest === '' || rest[0] === '#')
            continue;
        if (indent === 0 && (rest.startsWith('---') || rest.startsWith('...') || rest[0] === '%'))
            notPlain();
        const body = withoutComment(rest);
        if (body === '')
            notPlain();
        out.push({ no: i + 1, indent, text: body });
    }
    return out;
}
/** Reads the block node at `lines[at]` (its indentation `indent`); returns the value and the next line. */
class Reader {
    lines;
    constructor(lines) {
        this.lines = lines;
    }
    /** A mapping's entries or a sequence's items start at line `at`, column `indent`, with `text` (the rest of a `- ` line, or the line). */
    node(at, indent, text = this.lines[at].text) {
        return isItem(text) ? this.sequence(at, indent, text) : this.mapping(at, indent, text);
    }
    sequence(at, indent, firstText) {
        const items = [];
        let i = at;
        let text = firstText;
        while (i < this.lines.length) {
            const line = this.lines[i];
            if (i > at) {
                if (line.indent > indent)
                    notPlain();
                // Less indented, or a key after a sequence written at its key's column: the caller's.
                if (line.indent < indent || !isItem(line.text))
                    break;
                text = line.text;
            }
            if (text === '-') {
                const next = this.lines[i + 1];
                if (next && next.indent > indent) {
                    const inner = this.node(i + 1, next.indent);
                    items.push(inner.value);
                    i = inner.next;
                }
                else {
                    items.push(null);
                    i++;
                }
                continue;
            }
            // `- ` then the item, at its own column: a compact mapping or sequence continues at that column.
            const pad = text.slice(1).length - text.slice(1).trimStart().length;
            const rest = text.slice(1 + pad);
            const column = indent + 1 + pad;
            if (isItem(rest) || keyOf(rest) !== undefined) {
                const inner = this.node(i, column, rest);
                items.push(inner.value);
                i = inner.next;
            }
            else {
                items.push(inline(rest));
                i++;
                if (i < this.lines.length && this.lines[i].indent > indent)
                    notPlain();
            }
        }
        return { value: items, next: i };
    }
    mapping(at, indent, firstText) {
        const map = {};
        let i = at;
        let text = firstText;
        while (i < this.lines.length) {
            const line = this.lines[i];
            if (i > at) {
                if (line.indent < indent)
                    break;
                if (line.indent > indent)
                    notPlain();
                text = line.text;
            }
            const key = keyOf(text) ?? notPlain();
            if (Object.hasOwn(map, key.name))
                notPlain(); // a duplicate key is yaml's error to report
            i++;
            if (key.rest !== '') {
                map[key.name] = inline(key.rest);
                if (i < this.lines.length && this.lines[i].indent > indent)
                    notPlain();
                continue;
            }
            const next = this.lines[i];
            if (next && (next.indent > indent || (next.indent === indent && isItem(next.text)))) {
                const inner = this.node(i, next.indent);
                map[key.name] = inner.value;
                i = inner.next;
            }
            else
                map[key.name] = null;
        }
        return { value: map, next: i };
    }
}
const isItem = (text) => text === '-' || text.startsWith('- ');
/** `key: rest` or `key:` with a plain or simply quoted key; undefined when the text is no such entry. */
function keyOf(text) {
    let name;
    let after;
    if (text[0] === '"' || text[0] === "'") {
        const end = text.indexOf(text[0], 1);
        if (end < 0 || text[end + 1] !== ':')
            return undefined;
        name = text.slice(1, end);
        if (name.includes('\\') || name.includes("'") || name.includes('"'))
            notPlain();
        after = end + 2;
    }
    else {
        const colon = text.indexOf(':');
        if (colon < 0)
            return undefined;
        name = text.slice(0, colon);
        if (!PLAIN_KEY.test(name))
            return undefined;
        after = colon + 1;
    }
    if (after < text.length && text[after] !== ' ')
        return undefined;
    // Keys the core schema reads as other than their text, or that an object cannot hold as written.
    if (NULLS.has(name) || name === '__proto__')
        notPlain();
    return { name, rest: text.slice(after).trimStart() };
}
/** A value written on the line of its key or dash: a scalar or a one-line flow sequence of scalars. */
function inline(text) {
    if (text[0] !== '[')
        return scalar(text, false);
    if (text[text.length - 1] !== ']')
        notPlain();
    const inner = text.slice(1, -1).trim();
    if (inner === '')
        return [];
    const parts = inner.split(',').map((p) => p.trim());
    if (parts.some((p) => p === '' || p.includes(':')))
        notPlain();
    return parts.map((p) => scalar(p, true));
}
/**
 * The documents of `text` when all of it is in the plain shape (documents without content, as after
 * a trailing `---`, left out as `yaml`'s are by its caller); otherwise undefined.
 */
function parsePlainYaml(text) {
    try {
        const docs = [];
        let current = [];
        const flush = () => {
            if (current.length === 0)
                return;
            const first = current[0];
            if (first.indent !== 0)
                notPlain();
            const { value, next } = new Reader(current).node(0, first.indent);
            if (next !== current.length)
                notPlain();
            docs.push({ value, line: first.no, col: first.indent + 1 });
            current = [];
        };
        for (const line of linesOf(text)) {
            if (line === '---')
                flush();
            else
                current.push(line);
        }
        flush();
        return docs;
    }
    catch (err) {
        if (err instanceof NotPlain)
            return undefined;
        throw err;
    }
}
//# sourceMappingURL=plain-yaml.js.map