import type { FieldPath } from '../../validation/field-path';

/**
 * Hints for the YAML parser's indentation errors (by the `yaml` library's error code): the
 * parser's own text says where, not what to do about it.
 */
export const YAML_ERROR_HINTS: Readonly<Record<string, string>> = {
  BAD_INDENT:
    'YAML nests by indentation: start this line in the same column as the items it belongs with: each `- ` of a list under the one before, each key of a mapping under its siblings',
  TAB_AS_INDENT: 'indent with spaces: YAML does not allow tabs for indentation',
  BLOCK_AS_IMPLICIT_KEY:
    'a line below a key that already has a value is indented deeper than that key: move it back to the column of its siblings, or give the key no value on its own line',
  MULTILINE_IMPLICIT_KEY: 'a key must be on one line: is the line below indented deeper than its siblings?',
};

/** A key with nothing after it (`environments:`) and the keys written after it at its own indentation. */
export interface EmptyKey {
  mapping: FieldPath;
  key: string;
  siblings: string[];
}

const isMapping = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

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
export function emptyKeysFollowedBySiblings(value: unknown, path: FieldPath = []): EmptyKey[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => emptyKeysFollowedBySiblings(item, [...path, i]));
  if (!isMapping(value)) return [];
  const keys = Object.keys(value);
  const out: EmptyKey[] = [];
  keys.forEach((key, i) => {
    if (value[key] === null && i < keys.length - 1) out.push({ mapping: path, key, siblings: keys.slice(i + 1) });
  });
  return [...out, ...keys.flatMap((key) => emptyKeysFollowedBySiblings(value[key], [...path, key]))];
}

/** The hint for one such key: which lines to indent under it. */
export function emptyKeyHint(e: EmptyKey): string {
  const listed = e.siblings.map((s) => `"${s}"`).join(', ');
  return `"${e.key}" has no value and ${listed} follow${e.siblings.length === 1 ? 's' : ''} it at the same indentation: to put ${e.siblings.length === 1 ? 'it' : 'them'} inside "${e.key}", indent ${e.siblings.length === 1 ? 'it' : 'them'} two spaces more than "${e.key}"`;
}

/**
 * Adds the hint about an empty key followed by its would-be children to the first error about that
 * mapping, the empty key or one of the keys after it; once per empty key.
 */
export function indentationHint(value: unknown): (path: FieldPath, message: string) => string {
  const pending = emptyKeysFollowedBySiblings(value);
  return (path, message) => {
    const i = pending.findIndex(
      (e) =>
        path.length >= e.mapping.length &&
        path.length <= e.mapping.length + 1 &&
        e.mapping.every((p, j) => path[j] === p) &&
        (path.length === e.mapping.length || [e.key, ...e.siblings].includes(String(path.at(-1)))),
    );
    if (i < 0) return message;
    const [found] = pending.splice(i, 1);
    return `${message} (hint: ${emptyKeyHint(found)})`;
  };
}
