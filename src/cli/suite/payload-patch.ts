import { pathText, type FieldPath } from '../../validation/field-path';

/** `execution.steps[1].radius.percentage` -> ['execution', 'steps', 1, 'radius', 'percentage']. */
export function parsePatchPath(path: string): Array<string | number> {
  const out: Array<string | number> = [];
  for (const part of path.split('.')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!m || (m[1] === '' && m[2] === ''))
      throw new Error(`"${path}" is not a field path such as execution.steps[1].radius.percentage`);
    if (m[1] !== '') out.push(m[1]);
    for (const idx of m[2].matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  if (out.length === 0 || typeof out[0] === 'number') throw new Error(`"${path}" must start with a field name`);
  return out;
}

/** The three ways a case edits its payload; `patch` only changes what exists, `add` only creates. */
export interface PayloadEdits {
  add?: Record<string, unknown>;
  patch?: Record<string, unknown>;
  unset?: readonly string[];
}

/** An edit that cannot apply: which section and which entry (key or index), for a located report. */
export class PatchError extends Error {
  constructor(
    readonly section: 'add' | 'patch' | 'unset',
    readonly entry: string | number,
    message: string,
  ) {
    super(message);
    this.name = 'PatchError';
  }
}

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

type Container = Record<string, unknown> | unknown[];

function isContainer(v: unknown): v is Container {
  return typeof v === 'object' && v !== null;
}

const nameOf = (path: FieldPath, n: number) => pathText(path.slice(0, n)) || 'the payload';

/** What a person needs to fix a misspelt segment: the names (or the length) that are there. */
function whatIsThere(node: Container): string {
  if (Array.isArray(node)) return `a list of ${node.length}`;
  const keys = Object.keys(node);
  return keys.length ? `its fields: ${keys.join(', ')}` : 'no fields';
}

/** A list takes an index (up to its length, = append, only when `append`); an object takes a name. */
function checkIndex(node: Container, key: string | number, append: boolean): string | undefined {
  if (Array.isArray(node)) {
    if (typeof key !== 'number') return `${key} is a name, but the field is a list`;
    if (key > node.length || (key === node.length && !append))
      return `index ${key} is beyond the end of a list of ${node.length}`;
  } else if (typeof key === 'number') return `[${key}] indexes a field that is not a list`;
  if (typeof key === 'string' && FORBIDDEN.has(key)) return `may not use ${key}`;
  return undefined;
}

/**
 * Walks to the parent of the last segment. With `create` (add), missing objects and lists on the
 * way are made; without, every segment must exist: a misspelt name is an error, never a new field.
 */
function parentOf(root: Container, path: Array<string | number>, create: boolean): Container | string {
  let node: Container = root;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i];
    const bad = checkIndex(node, key, create);
    if (bad) return bad;
    let next = (node as Record<string, unknown>)[key as string];
    if (next === undefined && create) {
      next = typeof path[i + 1] === 'number' ? [] : {};
      (node as Record<string, unknown>)[key as string] = next;
    }
    if (next === undefined) return `${nameOf(path, i)} has no field ${key} (${whatIsThere(node)})`;
    if (!isContainer(next)) return `${nameOf(path, i + 1)} is ${JSON.stringify(next)}, not an object or a list`;
    node = next;
  }
  return node;
}

const has = (node: Container, key: string | number) => Object.hasOwn(node, key);

function setOne(copy: Container, section: 'add' | 'patch', text: string, value: unknown): void {
  const fail = (why: string) => new PatchError(section, text, `${section} "${text}": ${why}`);
  let path: Array<string | number>;
  try {
    path = parsePatchPath(text);
  } catch (err) {
    throw fail((err as Error).message);
  }
  const add = section === 'add';
  const parent = parentOf(copy, path, add);
  if (typeof parent === 'string') throw fail(parent);
  const last = path[path.length - 1];
  const bad = checkIndex(parent, last, add);
  if (bad) throw fail(bad);
  const exists = has(parent, last);
  if (add && exists) throw fail('the payload already has this field: change it under patch');
  if (!add && !exists)
    throw fail(
      `${nameOf(path, path.length - 1)} has no field ${last} (${whatIsThere(parent)}); a field the payload lacks is added under add`,
    );
  (parent as Record<string, unknown>)[last as string] = structuredClone(value);
}

function unsetOne(copy: Container, text: string, index: number): void {
  const fail = (why: string) => new PatchError('unset', index, `unset "${text}": ${why}`);
  let path: Array<string | number>;
  try {
    path = parsePatchPath(text);
  } catch (err) {
    throw fail((err as Error).message);
  }
  const parent = parentOf(copy, path, false);
  const last = path[path.length - 1];
  if (typeof parent === 'string' || checkIndex(parent, last, false) || !has(parent, last))
    throw fail('the payload has no such field');
  if (Array.isArray(parent)) parent.splice(last as number, 1);
  else delete parent[last as string];
}

/**
 * The payload with the edits applied, on a copy: `add` first (creates fields, objects and list
 * items the payload lacks), then `patch` (changes fields that exist), then `unset` (deletes).
 * A path that does not address what its section needs throws a PatchError naming it.
 */
export function applyPatch(payload: unknown, edits: PayloadEdits): unknown {
  if (!isContainer(payload) || Array.isArray(payload)) throw new Error('the payload must be a JSON object');
  const copy = structuredClone(payload) as Record<string, unknown>;
  for (const [text, value] of Object.entries(edits.add ?? {})) setOne(copy, 'add', text, value);
  for (const [text, value] of Object.entries(edits.patch ?? {})) setOne(copy, 'patch', text, value);
  (edits.unset ?? []).forEach((text, i) => unsetOne(copy, text, i));
  return copy;
}
