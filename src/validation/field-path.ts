/** A path into a document: `['rules', 0, 'environments']`. */
export type FieldPath = Array<string | number>;

/** Splits a JSON pointer (`/rules/0/environments`, as ajv reports it) into ['rules', 0, 'environments']. */
export function splitPointer(pointer: string): FieldPath {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p.replace(/~1/g, '/').replace(/~0/g, '~')));
}

/** `['execution', 'steps', 1, 'id']` -> `execution.steps[1].id` (how a person writes a field path); '' for the root. */
export function pathText(path: Readonly<FieldPath>): string {
  return path.reduce<string>((out, p) => (typeof p === 'number' ? `${out}[${p}]` : out ? `${out}.${p}` : p), '');
}
