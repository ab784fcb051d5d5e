"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.yamlCursor = yamlCursor;
exports.schemaAt = schemaAt;
exports.schemaCompletions = schemaCompletions;
const KEY_LINE = /^(\s*)((?:- +)*)([A-Za-z_][\w.-]*)\s*:(.*)$/;
/** The parent keys of a line at `indent`: each earlier line with less indentation, up to the root. */
function parentPath(lines, row, indent) {
    const path = [];
    let limit = indent;
    for (let r = row - 1; r >= 0 && limit > 0; r--) {
        const match = KEY_LINE.exec(lines[r]);
        if (!match)
            continue;
        const [, spaces, dashes, key, rest] = match;
        const keyAt = spaces.length + dashes.length;
        if (keyAt >= limit || rest.trim() !== '') {
            // A line like `- x: 1` still opens a sequence item for lines indented under it.
            if (keyAt < limit && dashes.length > 0) {
                path.unshift(-1);
                limit = spaces.length;
            }
            continue;
        }
        path.unshift(key);
        for (let d = 0; d < dashes.replace(/ +/g, ' ').split(' ').length - 1; d++)
            path.unshift(-1);
        limit = spaces.length;
    }
    return path;
}
/** Reads the cursor's place in a YAML text (block style: the way policies are written). */
function yamlCursor(text, offset) {
    const before = text.slice(0, offset);
    const lines = before.split('\n');
    const row = lines.length - 1;
    const line = lines[row];
    const value = /^(\s*(?:- +)*)([A-Za-z_][\w.-]*)\s*:\s*([\w-]*)$/.exec(line);
    if (value) {
        const keyAt = value[1].length;
        const path = parentPath(text.split('\n'), row, keyAt);
        if (value[1].includes('-'))
            path.push(-1);
        return { path, valueKey: value[2], word: value[3], from: line.length - value[3].length };
    }
    const key = /^(\s*)((?:- +)*)([\w.-]*)$/.exec(line) ?? ['', '', '', ''];
    const keyAt = key[1].length + key[2].length;
    const path = parentPath(text.split('\n'), row, keyAt === 0 && key[2] === '' ? 0 : keyAt);
    for (let d = 0; d < (key[2].match(/-/g) ?? []).length; d++)
        path.push(-1);
    return { path, word: key[3], from: keyAt };
}
/** Every alternative a node stands for (through oneOf/anyOf). */
const alternatives = (node) => [
    node,
    ...[...(node.oneOf ?? []), ...(node.anyOf ?? [])].flatMap(alternatives),
];
/** The schema nodes at `path`, starting from the document kinds whose `kind` matches (all when not yet typed). */
function schemaAt(root, kind, path) {
    let nodes = alternatives(root).filter((n) => n.properties?.kind !== undefined && (kind === undefined || n.properties.kind.const === kind));
    for (const segment of path) {
        nodes = nodes
            .flatMap((n) => segment === -1 ? (n.items ? [n.items] : []) : n.properties?.[segment] ? [n.properties[segment]] : [])
            .flatMap(alternatives);
    }
    return nodes;
}
const oneLine = (text) => text?.split('\n')[0];
/** Keys (and values after `key: `) the editor schema allows at the cursor of a YAML document. */
function schemaCompletions(root, text, offset) {
    const cursor = yamlCursor(text, offset);
    const kind = /^kind:\s*(\w+)/m.exec(text)?.[1];
    const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
    const seen = new Map();
    if (cursor.valueKey !== undefined) {
        const path = [...cursor.path, cursor.valueKey];
        for (const node of schemaAt(root, cursor.valueKey === 'kind' ? undefined : kind, path)) {
            for (const value of [...(node.enum ?? []), ...(node.const === undefined ? [] : [node.const])])
                if (typeof value === 'string')
                    seen.set(value, { label: value, apply: value, info: oneLine(node.description) });
        }
    }
    else {
        for (const node of schemaAt(root, kind, cursor.path))
            for (const [key, child] of Object.entries(node.properties ?? {}))
                if (!seen.has(key))
                    seen.set(key, { label: key, apply: `${key}: `, detail: typeText(child), info: oneLine(child.description) });
    }
    return { from: lineStart + cursor.from, options: [...seen.values()] };
}
function typeText(node) {
    if (node.const !== undefined)
        return JSON.stringify(node.const);
    if (node.enum)
        return node.enum.map((v) => JSON.stringify(v)).join(' | ');
    return Array.isArray(node.type) ? node.type.join(' | ') : node.type;
}
//# sourceMappingURL=schema-completion.js.map