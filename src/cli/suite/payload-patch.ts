/** `execution.steps[1].radius.percentage` -> ['execution', 'steps', 1, 'radius', 'percentage']. */
export function parsePatchPath(path: string): Array<string | number> {
  const out: Array<string | number> = [];
  for (const part of path.split('.')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!m || (m[1] === '' && m[2] === '')) throw new Error(`"${path}" is not a field path such as execution.steps[1].radius.percentage`);
    if (m[1] !== '') out.push(m[1]);
    for (const idx of m[2].matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  if (out.length === 0 || typeof out[0] === 'number') throw new Error(`"${path}" must start with a field name`);
  return out;
}

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

type Container = Record<string, unknown> | unknown[];

function isContainer(v: unknown): v is Container {
  return typeof v === 'object' && v !== null;
}

/** A list takes an index up to its length (= append); an object takes a name. */
function checkIndex(node: Container, key: string | number, text: string): void {
  if (Array.isArray(node) && (typeof key !== 'number' || key > node.length)) {
    throw new Error(`"${text}": ${typeof key === 'number' ? `index ${key} is beyond the end of a list of ${node.length}` : `${key} is a name, but the field is a list`}`);
  }
  if (!Array.isArray(node) && typeof key === 'number') throw new Error(`"${text}": [${key}] indexes a field that is not a list`);
}

/** Walks to the parent of the last segment, creating objects/arrays on the way when `create`. */
function parentOf(root: Container, path: Array<string | number>, create: boolean, text: string): Container | undefined {
  let node: Container = root;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i];
    if (typeof key === 'string' && FORBIDDEN.has(key)) throw new Error(`"${text}" may not use ${key}`);
    checkIndex(node, key, text);
    let next = (node as Record<string, unknown>)[key as string];
    if (next === undefined && create) {
      next = typeof path[i + 1] === 'number' ? [] : {};
      (node as Record<string, unknown>)[key as string] = next;
    }
    if (next === undefined) return undefined;
    if (!isContainer(next)) throw new Error(`"${text}": ${path.slice(0, i + 1).join('.')} is ${JSON.stringify(next)}, not an object or a list`);
    node = next;
  }
  return node;
}

/** Sets the dotted paths of `patch` and deletes those of `unset`, on a copy of `payload`. */
export function applyPatch(payload: unknown, patch: Record<string, unknown> = {}, unset: readonly string[] = []): unknown {
  if (!isContainer(payload) || Array.isArray(payload)) throw new Error('the payload must be a JSON object');
  const copy = structuredClone(payload) as Record<string, unknown>;
  for (const [text, value] of Object.entries(patch)) {
    const path = parsePatchPath(text);
    const last = path[path.length - 1];
    if (typeof last === 'string' && FORBIDDEN.has(last)) throw new Error(`"${text}" may not use ${last}`);
    const parent = parentOf(copy, path, true, text) as Container;
    checkIndex(parent, last, text);
    (parent as Record<string, unknown>)[last as string] = structuredClone(value);
  }
  for (const text of unset) {
    const path = parsePatchPath(text);
    const parent = parentOf(copy, path, false, text);
    const last = path[path.length - 1];
    if (parent === undefined || !(String(last) in parent)) throw new Error(`unset "${text}": the payload has no such field`);
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last as string];
  }
  return copy;
}
