"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.YAML_ERROR_HINTS = void 0;
exports.emptyKeysFollowedBySiblings = emptyKeysFollowedBySiblings;
exports.emptyKeyHint = emptyKeyHint;
exports.indentationHint = indentationHint;
/**
 * Hints for the YAML parser's indentation errors (by the `yaml` library's error code): the
 * parser's own text says where, not what to do about it.
 */
exports.YAML_ERROR_HINTS = {
    BAD_INDENT: 'YAML nests by indentation: start this line in the same column as the items it belongs with: each `- ` of a list under the one before, each key of a mapping under its siblings',
    TAB_AS_INDENT: 'indent with spaces: YAML does not allow tabs for indentation',
    BLOCK_AS_IMPLICIT_KEY: 'a line below a key that already has a value is indented deeper than that key: move it back to the column of its siblings, or give the key no value on its own line',
    MULTILINE_IMPLICIT_KEY: 'a key must be on one line: is the line below indented deeper than its siblings?',
};
const isMapping = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
/**
 * Every mapping where a key has no value and other keys follow it at the same level: the common
 * slip of writing
 *
 *     - environments:
 *       blocked: [production]
 *
 * where `blocked` belongs inside `environments` (two more spaces). Policy documents never take an
 * empty value, so such a key only comes with a schema error, which the hint explains.
 */
function emptyKeysFollowedBySiblings(value, path = []) {
    if (Array.isArray(value))
        return value.flatMap((item, i) => emptyKeysFollowedBySiblings(item, [...path, i]));
    if (!isMapping(value))
        return [];
    const keys = Object.keys(value);
    const out = [];
    keys.forEach((key, i) => {
        if (value[key] === null && i < keys.length - 1)
            out.push({ mapping: path, key, siblings: keys.slice(i + 1) });
    });
    return [...out, ...keys.flatMap((key) => emptyKeysFollowedBySiblings(value[key], [...path, key]))];
}
/** The hint for one such key: which lines to indent under it. */
function emptyKeyHint(e) {
    const listed = e.siblings.map((s) => `"${s}"`).join(', ');
    return `"${e.key}" has no value and ${listed} follow${e.siblings.length === 1 ? 's' : ''} it at the same indentation: to put ${e.siblings.length === 1 ? 'it' : 'them'} inside "${e.key}", indent ${e.siblings.length === 1 ? 'it' : 'them'} two spaces more than "${e.key}"`;
}
/**
 * Adds the hint about an empty key followed by its would-be children to the first error about that
 * mapping, the empty key or one of the keys after it; once per empty key.
 */
function indentationHint(value) {
    const pending = emptyKeysFollowedBySiblings(value);
    return (path, message) => {
        const i = pending.findIndex((e) => path.length >= e.mapping.length &&
            path.length <= e.mapping.length + 1 &&
            e.mapping.every((p, j) => path[j] === p) &&
            (path.length === e.mapping.length || [e.key, ...e.siblings].includes(String(path.at(-1)))));
        if (i < 0)
            return message;
        const [found] = pending.splice(i, 1);
        return `${message} (hint: ${emptyKeyHint(found)})`;
    };
}
//# sourceMappingURL=indentation-hints.js.map