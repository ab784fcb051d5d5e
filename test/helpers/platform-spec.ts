import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/** Steadybit's Platform API subset (copied from shared/steadybit, spec 2.8.7), as published. */
export const SPEC_FILE = join(__dirname, '..', 'fixtures', 'steadybit', 'openapi-platform-subset.json');

type Schema = Record<string, unknown>;
const ref = (name: string) => `#/components/schemas/${name}`;

/**
 * The spec made usable by a validator, in a copy: each `oneOf` subtype that `allOf`s its base
 * again (TargetPredicateAO, BaseExperimentStepAO, AbstractExperimentExecutionStepAO) loses that
 * back-edge, which would make validation recurse forever, and duplicated `enum` values
 * (SelectExpressionAO.scope) are listed once. Nothing else changes.
 */
function usableSpec(): Schema {
  const spec = JSON.parse(readFileSync(SPEC_FILE, 'utf8')) as { components: { schemas: Record<string, Schema> } };
  const schemas = spec.components.schemas;
  for (const [name, schema] of Object.entries(schemas)) {
    for (const branch of (schema.oneOf as Schema[] | undefined) ?? []) {
      const sub = typeof branch.$ref === 'string' ? schemas[branch.$ref.split('/').pop() as string] : undefined;
      if (Array.isArray(sub?.allOf)) sub.allOf = (sub.allOf as Schema[]).map((s) => (s.$ref === ref(name) ? {} : s));
    }
  }
  const dedupe = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(dedupe);
    else if (v && typeof v === 'object') {
      const o = v as Schema;
      if (Array.isArray(o.enum)) o.enum = [...new Set(o.enum)];
      Object.values(o).forEach(dedupe);
    }
  };
  dedupe(schemas);
  return spec as unknown as Schema;
}

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

function validator(pointer: string): ValidateFunction {
  let v = compiled.get(pointer);
  if (!v) {
    if (!ajv) {
      // OpenAPI 3.0 keywords (nullable, example, discriminator without mapping) and int32/int64 formats.
      ajv = new Ajv({ strict: false, allErrors: true });
      addFormats(ajv);
      ajv.addFormat('int32', {
        type: 'number',
        validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
      });
      ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
      ajv.addSchema(usableSpec(), 'spec');
    }
    v = ajv.compile({ $ref: `spec${pointer}` });
    compiled.set(pointer, v);
  }
  return v;
}

/** Problems of `value` against a named schema (`EnvironmentAO`), or [] when it is valid. */
export function schemaProblems(schemaName: string, value: unknown): string[] {
  const v = validator(`#/components/schemas/${schemaName}`);
  return v(value) ? [] : (v.errors ?? []).map((e) => `${schemaName}${e.instancePath} ${e.message}`);
}

let paths: Record<string, Record<string, Schema>> | undefined;
const specPaths = () =>
  (paths ??= (JSON.parse(readFileSync(SPEC_FILE, 'utf8')) as { paths: Record<string, Record<string, Schema>> }).paths);

/** The spec's path template a concrete path falls under: `/api/experiments/ADM-1/execute` -> `/api/experiments/{key}/execute`. */
export function specPath(path: string): string | undefined {
  if (specPaths()[path]) return path;
  const parts = path.split('/');
  return Object.keys(specPaths()).find((t) => {
    const tp = t.split('/');
    return tp.length === parts.length && tp.every((p, i) => (p.startsWith('{') ? parts[i] !== '' : p === parts[i]));
  });
}

/**
 * The schema name of an operation's JSON answer with `status` (default 200), or of its JSON request
 * body; undefined when the spec documents none (a bodiless 201, say). `path` may be concrete.
 */
export function operationSchemaOrNone(
  path: string,
  method: string,
  part: 'response' | 'request',
  status = '200',
): string | undefined {
  const template = specPath(path);
  const op = template === undefined ? undefined : specPaths()[template]?.[method.toLowerCase()];
  if (!op) throw new Error(`no operation ${method} ${path} in the spec`);
  const holder = (part === 'response' ? (op.responses as Schema)[status] : op.requestBody) as
    | { content?: Record<string, { schema: { $ref: string } }> }
    | undefined;
  return holder?.content?.['application/json']?.schema.$ref.split('/').pop();
}

/** The schema name of an operation's 200 JSON answer, or of its JSON request body. */
export function operationSchema(path: string, method: string, part: 'response' | 'request'): string {
  const name = operationSchemaOrNone(path, method, part);
  if (name === undefined) throw new Error(`no JSON ${part} schema for ${method} ${path} in the spec`);
  return name;
}
