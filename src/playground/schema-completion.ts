/** A JSON Schema node as the editor schema writes them (`preflight-gate schema`): no $ref, unions in oneOf/anyOf. */
export interface SchemaNode {
  type?: string | string[];
  description?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  enum?: unknown[];
  const?: unknown;
}

/** One completion: a key (written with its colon) or a value. */
export interface SchemaCompletion {
  label: string;
  apply: string;
  detail?: string;
  info?: string;
}

/** Where the cursor is in a YAML document: the keys leading to its mapping, and whether a key or a value is typed. */
export interface YamlCursor {
  /** Keys from the document root; `-1` stands for an item of a sequence. */
  path: Array<string | -1>;
  /** The key whose value is being typed, when after `key: `. */
  valueKey?: string;
  /** The text typed so far of the word being completed, and where it starts in the line. */
  word: string;
  from: number;
}

const KEY_LINE = /^(\s*)((?:- +)*)([A-Za-z_][\w.-]*)\s*:(.*)$/;

/** The parent keys of a line at `indent`: each earlier line with less indentation, up to the root. */
function parentPath(lines: readonly string[], row: number, indent: number): Array<string | -1> {
  const path: Array<string | -1> = [];
  let limit = indent;
  for (let r = row - 1; r >= 0 && limit > 0; r--) {
    const match = KEY_LINE.exec(lines[r]);
    if (!match) continue;
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
    for (let d = 0; d < dashes.replace(/ +/g, ' ').split(' ').length - 1; d++) path.unshift(-1);
    limit = spaces.length;
  }
  return path;
}

/** Reads the cursor's place in a YAML text (block style: the way policies are written). */
export function yamlCursor(text: string, offset: number): YamlCursor {
  const before = text.slice(0, offset);
  const lines = before.split('\n');
  const row = lines.length - 1;
  const line = lines[row];
  const value = /^(\s*(?:- +)*)([A-Za-z_][\w.-]*)\s*:\s*([\w-]*)$/.exec(line);
  if (value) {
    const keyAt = value[1].length;
    const path = parentPath(text.split('\n'), row, keyAt);
    if (value[1].includes('-')) path.push(-1);
    return { path, valueKey: value[2], word: value[3], from: line.length - value[3].length };
  }
  const key = /^(\s*)((?:- +)*)([\w.-]*)$/.exec(line) ?? ['', '', '', ''];
  const keyAt = key[1].length + key[2].length;
  const path = parentPath(text.split('\n'), row, keyAt === 0 && key[2] === '' ? 0 : keyAt);
  for (let d = 0; d < (key[2].match(/-/g) ?? []).length; d++) path.push(-1);
  return { path, word: key[3], from: keyAt };
}

/** Every alternative a node stands for (through oneOf/anyOf). */
const alternatives = (node: SchemaNode): SchemaNode[] => [
  node,
  ...[...(node.oneOf ?? []), ...(node.anyOf ?? [])].flatMap(alternatives),
];

/** The schema nodes at `path`, starting from the document kinds whose `kind` matches (all when not yet typed). */
export function schemaAt(root: SchemaNode, kind: string | undefined, path: ReadonlyArray<string | -1>): SchemaNode[] {
  let nodes = alternatives(root).filter(
    (n) => n.properties?.kind !== undefined && (kind === undefined || n.properties.kind.const === kind),
  );
  for (const segment of path) {
    nodes = nodes
      .flatMap((n) =>
        segment === -1 ? (n.items ? [n.items] : []) : n.properties?.[segment] ? [n.properties[segment]] : [],
      )
      .flatMap(alternatives);
  }
  return nodes;
}

const oneLine = (text: string | undefined) => text?.split('\n')[0];

/** Keys (and values after `key: `) the editor schema allows at the cursor of a YAML document. */
export function schemaCompletions(
  root: SchemaNode,
  text: string,
  offset: number,
): { from: number; options: SchemaCompletion[] } {
  const cursor = yamlCursor(text, offset);
  const kind = /^kind:\s*(\w+)/m.exec(text)?.[1];
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const seen = new Map<string, SchemaCompletion>();
  if (cursor.valueKey !== undefined) {
    const path = [...cursor.path, cursor.valueKey];
    for (const node of schemaAt(root, cursor.valueKey === 'kind' ? undefined : kind, path)) {
      for (const value of [...(node.enum ?? []), ...(node.const === undefined ? [] : [node.const])])
        if (typeof value === 'string') seen.set(value, { label: value, apply: value, info: oneLine(node.description) });
    }
  } else {
    for (const node of schemaAt(root, kind, cursor.path))
      for (const [key, child] of Object.entries(node.properties ?? {}))
        if (!seen.has(key))
          seen.set(key, { label: key, apply: `${key}: `, detail: typeText(child), info: oneLine(child.description) });
  }
  return { from: lineStart + cursor.from, options: [...seen.values()] };
}

function typeText(node: SchemaNode): string | undefined {
  if (node.const !== undefined) return JSON.stringify(node.const);
  if (node.enum) return node.enum.map((v) => JSON.stringify(v)).join(' | ');
  return Array.isArray(node.type) ? node.type.join(' | ') : node.type;
}
