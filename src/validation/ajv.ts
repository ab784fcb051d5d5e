import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * The one ajv instance of the service. Schemas are compiled once, at start-up or policy load,
 * never per request.
 */
export const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats(ajv, ['date-time', 'date', 'time', 'uri', 'uuid']);
ajv.addKeyword('markdownDescription'); // editor hint in the policy schema, ignored by validation

/** `/execution/steps/1/id` -> `execution.steps[1].id` (how a person writes a field path). */
export function toFieldPath(instancePath: string, missingProperty?: string): string {
  const parts = instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (missingProperty !== undefined) parts.push(missingProperty);
  let out = '';
  for (const part of parts) {
    if (/^\d+$/.test(part)) out += `[${part}]`;
    else out += out === '' ? part : `.${part}`;
  }
  return out === '' ? '(root)' : out;
}

export interface FieldError { path: string; message: string }

/** ajv errors -> one line each, `path: message`, without the noise of failed anyOf branches. */
export function toFieldErrors(errors: ErrorObject[] | null | undefined): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    const missing = e.keyword === 'required' ? String(e.params.missingProperty) : undefined;
    const extra = e.keyword === 'additionalProperties' ? String(e.params.additionalProperty) : undefined;
    const path = toFieldPath(e.instancePath, missing ?? extra);
    let message = e.message ?? 'is invalid';
    if (missing) message = 'is required';
    if (extra) message = 'is not a known field';
    if (e.keyword === 'enum') message = `must be one of ${(e.params.allowedValues as unknown[]).map(String).join(', ')}`;
    const line = `${path}: ${message}`;
    if (!seen.has(line)) {
      seen.add(line);
      out.push({ path, message });
    }
  }
  return out;
}
