"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PatchError = void 0;
exports.parsePatchPath = parsePatchPath;
exports.applyPatch = applyPatch;
const field_path_1 = require("../../validation/field-path");
/** `execution.steps[1].radius.percentage` -> ['execution', 'steps', 1, 'radius', 'percentage']. */
function parsePatchPath(path) {
    const out = [];
    for (const part of path.split('.')) {
        const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
        if (!m || (m[1] === '' && m[2] === ''))
            throw new Error(`"${path}" is not a field path such as execution.steps[1].radius.percentage`);
        if (m[1] !== '')
            out.push(m[1]);
        for (const idx of m[2].matchAll(/\[(\d+)\]/g))
            out.push(Number(idx[1]));
    }
    if (out.length === 0 || typeof out[0] === 'number')
        throw new Error(`"${path}" must start with a field name`);
    return out;
}
/** An edit that cannot apply: which section and which entry (key or index), for a located report. */
class PatchError extends Error {
    section;
    entry;
    constructor(section, entry, message) {
        super(message);
        this.section = section;
        this.entry = entry;
        this.name = 'PatchError';
    }
}
exports.PatchError = PatchError;
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
function isContainer(v) {
    return typeof v === 'object' && v !== null;
}
const nameOf = (path, n) => (0, field_path_1.pathText)(path.slice(0, n)) || 'the payload';
/** What a person needs to fix a misspelt segment: the names (or the length) that are there. */
function whatIsThere(node) {
    if (Array.isArray(node))
        return `a list of ${node.length}`;
    const keys = Object.keys(node);
    return keys.length ? `its fields: ${keys.join(', ')}` : 'no fields';
}
/** A list takes an index (up to its length, = append, only when `append`); an object takes a name. */
function checkIndex(node, key, append) {
    if (Array.isArray(node)) {
        if (typeof key !== 'number')
            return `${key} is a name, but the field is a list`;
        if (key > node.length || (key === node.length && !append))
            return `index ${key} is beyond the end of a list of ${node.length}`;
    }
    else if (typeof key === 'number')
        return `[${key}] indexes a field that is not a list`;
    if (typeof key === 'string' && FORBIDDEN.has(key))
        return `may not use ${key}`;
    return undefined;
}
/**
 * Walks to the parent of the last segment. With `create` (add), missing objects and lists on the
 * way are made; without, every segment must exist: a misspelt name is an error, never a new field.
 */
function parentOf(root, path, create) {
    let node = root;
    for (let i = 0; i < path.length - 1; i++) {
        const key = path[i];
        const bad = checkIndex(node, key, create);
        if (bad)
            return bad;
        let next = node[key];
        if (next === undefined && create) {
            next = typeof path[i + 1] === 'number' ? [] : {};
            node[key] = next;
        }
        if (next === undefined)
            return `${nameOf(path, i)} has no field ${key} (${whatIsThere(node)})`;
        if (!isContainer(next))
            return `${nameOf(path, i + 1)} is ${JSON.stringify(next)}, not an object or a list`;
        node = next;
    }
    return node;
}
const has = (node, key) => Object.hasOwn(node, key);
function setOne(copy, section, text, value) {
    const fail = (why) => new PatchError(section, text, `${section} "${text}": ${why}`);
    let path;
    try {
        path = parsePatchPath(text);
    }
    catch (err) {
        throw fail(err.message);
    }
    const add = section === 'add';
    const parent = parentOf(copy, path, add);
    if (typeof parent === 'string')
        throw fail(parent);
    const last = path[path.length - 1];
    const bad = checkIndex(parent, last, add);
    if (bad)
        throw fail(bad);
    const exists = has(parent, last);
    if (add && exists)
        throw fail('the payload already has this field: change it under patch');
    if (!add && !exists)
        throw fail(`${nameOf(path, path.length - 1)} has no field ${last} (${whatIsThere(parent)}); a field the payload lacks is added under add`);
    parent[last] = structuredClone(value);
}
function unsetOne(copy, text, index) {
    const fail = (why) => new PatchError('unset', index, `unset "${text}": ${why}`);
    let path;
    try {
        path = parsePatchPath(text);
    }
    catch (err) {
        throw fail(err.message);
    }
    const parent = parentOf(copy, path, false);
    const last = path[path.length - 1];
    if (typeof parent === 'string' || checkIndex(parent, last, false) || !has(parent, last))
        throw fail('the payload has no such field');
    if (Array.isArray(parent))
        parent.splice(last, 1);
    else
        delete parent[last];
}
/**
 * The payload with the edits applied, on a copy: `add` first (creates fields, objects and list
 * items the payload lacks), then `patch` (changes fields that exist), then `unset` (deletes).
 * A path that does not address what its section needs throws a PatchError naming it.
 */
function applyPatch(payload, edits) {
    if (!isContainer(payload) || Array.isArray(payload))
        throw new Error('the payload must be a JSON object');
    const copy = structuredClone(payload);
    for (const [text, value] of Object.entries(edits.add ?? {}))
        setOne(copy, 'add', text, value);
    for (const [text, value] of Object.entries(edits.patch ?? {}))
        setOne(copy, 'patch', text, value);
    (edits.unset ?? []).forEach((text, i) => unsetOne(copy, text, i));
    return copy;
}
//# sourceMappingURL=payload-patch.js.map