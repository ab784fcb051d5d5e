import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { FIXTURES } from './fixtures';

/**
 * The official response schemas of PagerDuty, Opsgenie and Argo CD (test/fixtures/api-schemas/,
 * excerpts of their OpenAPI / Swagger documents), for checking what the local fakes answer.
 * Their own ajv: OpenAPI keywords (nullable, readOnly, x-*) and formats (int32, byte) are not the
 * project's policy schema dialect, so strict mode is off here and unknown formats are ignored.
 */
const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
addFormats(ajv, ['date-time', 'date', 'uri', 'email']);
for (const name of ['pagerduty-incidents', 'opsgenie-alerts', 'argocd-application'])
  ajv.addSchema(JSON.parse(readFileSync(join(FIXTURES, 'api-schemas', `${name}.schema.json`), 'utf8')) as object);

/** Why `body` does not fit the definition `definition` of the schema file `name` (empty when it fits). */
export function apiSchemaErrors(name: string, definition: string, body: unknown): string[] {
  const validate = ajv.getSchema(`${name}#/definitions/${definition}`);
  if (!validate) throw new Error(`no definition ${definition} in test/fixtures/api-schemas/${name}.schema.json`);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}
