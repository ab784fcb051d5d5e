import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from '../helpers/server-process';

/**
 * Issue 29 item 8: the service compiles no schema when a module loads. Its validators are compiled
 * once by scripts/build-validators.js (into the generated/ modules); ajv's compiler is loaded only
 * by that script and by tests. A module that compiled at import would cost every test file of the
 * fast lane its compile again (each has its own module registry), and the service its start-up.
 */
const COMPILER = ['validation/ajv.ts', 'validation/create-ajv.ts', 'validation/syntax-keyword.ts'];
const FIX = 'add the schema to SCHEMA_MODULES in scripts/build-validators.js and import its generated validator';
const SRC = join(ROOT, 'src');

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

/**
 * Why a module (its path under src/ and its text) must not be in the service: it imports the ajv
 * instance or its set-up (type-only imports aside), or loads ajv or ajv-formats itself.
 */
function compilesAtRunTime(file: string, text: string): string | undefined {
  if (COMPILER.includes(file)) return undefined;
  for (const [, what, specifier] of text.matchAll(/^import (type )?[^;]*?from '([^']+)';/gms)) {
    if (what !== undefined) continue;
    if (specifier === 'ajv' || specifier === 'ajv-formats') return `${file} loads ${specifier}: ${FIX}`;
    const target = `${relative(SRC, resolve(SRC, dirname(file), specifier))}.ts`;
    if (specifier.startsWith('.') && COMPILER.includes(target)) return `${file} imports ${target}: ${FIX}`;
  }
  return undefined;
}

test('no module of src/ imports the ajv instance or loads ajv itself (type-only imports aside)', () => {
  const found = sources(SRC)
    .map((path) => relative(SRC, path))
    .filter((file) => !file.includes('/generated/'))
    .map((file) => compilesAtRunTime(file, readFileSync(join(SRC, file), 'utf8')));
  expect(found.filter((why) => why !== undefined)).toEqual([]);
});

test.each([
  ["import { ajv } from '../validation/ajv';", 'payload/validate-payload.ts imports validation/ajv.ts'],
  [
    "import {\n  createAjv,\n} from '../../validation/create-ajv';",
    'policy/loading/x.ts imports validation/create-ajv.ts',
  ],
  ["import Ajv from 'ajv';", 'payload/validate-payload.ts loads ajv'],
  ["import { _, type KeywordCxt } from 'ajv';", 'payload/validate-payload.ts loads ajv'],
  ["import type { ErrorObject } from 'ajv';", undefined],
  ["import type { Validator } from '../validation/validator';", undefined],
])('planted: %j', (text, found) => {
  const file = text.includes('../../') ? 'policy/loading/x.ts' : 'payload/validate-payload.ts';
  expect(compilesAtRunTime(file, `${text}\n`)?.replace(`: ${FIX}`, '')).toBe(found);
});
