import type { ErrorObject } from 'ajv';
import { splitPointer } from './field-path';

/** What was validated, and against what: lets an error say what was written and what was allowed. */
export interface ValidatedInput {
  data: unknown;
  schema: unknown;
}

function at(root: unknown, path: ReadonlyArray<string | number>): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

/**
 * The errors with the value each is about (`data`) and the schema object holding the failed keyword
 * (`parentSchema`), as ajv's `verbose` option would give them, found from the input and the schema
 * (which hold no $ref). Done here, only once validation failed: `verbose` slowed every validation
 * of a valid payload by about a fifth.
 */
export function withErrorContext(errors: readonly ErrorObject[], input: ValidatedInput | undefined): ErrorObject[] {
  if (input === undefined) return [...errors];
  return errors.map((e) => ({
    ...e,
    data: at(input.data, splitPointer(e.instancePath)),
    parentSchema: at(
      input.schema,
      splitPointer(e.schemaPath.replace(/^#/, '')).slice(0, -1),
    ) as ErrorObject['parentSchema'],
  }));
}
