import Ajv, { type CodeOptions } from 'ajv';
import addFormats from 'ajv-formats';
import { syntaxKeyword } from './syntax-keyword';

/**
 * An ajv instance with the service's settings. Not `verbose`: what an error is about (the value
 * written, the fields known there) is looked up only when validation failed (error-context.ts).
 * The service compiles nothing at run time: its schemas are compiled by scripts/build-validators.js
 * (with `code: { source: true, esm: true }`) into the `generated/` modules next to each schema.
 */
export function createAjv(code: CodeOptions = {}): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, code });
  addFormats(ajv, ['date-time', 'date', 'time', 'uri', 'uuid']);
  ajv.addKeyword('markdownDescription'); // editor hint in the policy schema, ignored by validation
  ajv.addKeyword(syntaxKeyword);
  return ajv;
}
