import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { pathText, splitPointer, type FieldPath } from './field-path';

/**
 * The one ajv instance of the service. Schemas are compiled once, at start-up or policy load,
 * never per request.
 */
export const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats(ajv, ['date-time', 'date', 'time', 'uri', 'uuid']);
ajv.addKeyword('markdownDescription'); // editor hint in the policy schema, ignored by validation

/** `/execution/steps/1/id` -> `execution.steps[1].id` (how a person writes a field path). */
export function toFieldPath(instancePath: string, missingProperty?: string): string {
  const path = splitPointer(instancePath);
  if (missingProperty !== undefined) path.push(missingProperty);
  return pathText(path) || '(root)';
}

/** The field an ajv error is about: an unknown key (additionalProperties) or a missing one (required). */
function namedField(e: ErrorObject): { unknownKey?: string; missing?: string } {
  if (e.keyword === 'additionalProperties') return { unknownKey: String(e.params.additionalProperty) };
  if (e.keyword === 'required') return { missing: String(e.params.missingProperty) };
  return {};
}

export interface FieldError { path: string; message: string }

/** ajv errors -> one line each, `path: message`, without the noise of failed anyOf branches. */
export function toFieldErrors(errors: ErrorObject[] | null | undefined): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    const { missing, unknownKey: extra } = namedField(e);
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

export interface LocatedError {
  /** Where to point in the document: the unknown key itself, else the object or value at fault. */
  path: FieldPath;
  /** `field message` when the error names a field (`kind is required`), else the message. */
  message: string;
  /** The key an additionalProperties error found. */
  unknownKey?: string;
}

/** ajv errors against a YAML document (policies, test suites), to be located at file:line:col. */
export function toLocatedErrors(errors: ErrorObject[] | null | undefined): LocatedError[] {
  return (errors ?? []).map((e) => {
    const { missing, unknownKey } = namedField(e);
    const path = splitPointer(e.instancePath);
    if (unknownKey !== undefined) path.push(unknownKey);
    const [{ message }] = toFieldErrors([e]);
    const field = unknownKey ?? missing;
    return { path, message: field === undefined ? message : `${field} ${message}`, unknownKey };
  });
}
