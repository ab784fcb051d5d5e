import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../helpers/server-process';
import { srcImportGraph } from './src-import-graph';

/**
 * Issue 29 item 8: the service compiles no schema when a module loads. Its validators are compiled
 * once by scripts/build-validators.js (into the generated/ modules); ajv's compiler is loaded only
 * by that script and by tests. A module that compiled at import would cost every test file of the
 * fast lane its compile again (each has its own module registry), and the service its start-up.
 */
const COMPILER = ['validation/ajv.ts', 'validation/create-ajv.ts', 'validation/syntax-keyword.ts'];
const FIX = 'add the schema to SCHEMA_MODULES in scripts/build-validators.js and import its generated validator';

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

/** The modules of an import graph that import the compiler set-up, each with what to do instead. */
const compilingModules = (graph: Record<string, string[]>): string[] =>
  Object.entries(graph)
    .filter(([file, imports]) => !COMPILER.includes(file) && imports.some((i) => COMPILER.includes(i)))
    .map(([file]) => `${file}: ${FIX}`);

/** Whether a module's text loads ajv or ajv-formats (an import that is not `import type`). */
const loadsAjv = (text: string) => /^import (?!type )[^;]*from 'ajv(-formats)?'/m.test(text);

test('no module of src/ imports the ajv instance that compiles at run time', () => {
  expect(compilingModules(srcImportGraph(ROOT))).toEqual([]);
});

test('no module of src/ loads ajv itself (types only), but the compiler set-up', () => {
  const loading = sources(join(ROOT, 'src'))
    .map((file) => relative(join(ROOT, 'src'), file))
    .filter((file) => !COMPILER.includes(file) && !file.includes('/generated/'))
    .filter((file) => loadsAjv(readFileSync(join(ROOT, 'src', file), 'utf8')))
    .map((file) => `${file}: ${FIX}`);
  expect(loading).toEqual([]);
});

test('planted: a module importing the ajv instance, a value import of ajv', () => {
  expect(compilingModules({ 'payload/validate-payload.ts': ['validation/ajv.ts', 'json-object.ts'] })).toEqual([
    `payload/validate-payload.ts: ${FIX}`,
  ]);
  expect(loadsAjv("import Ajv from 'ajv';\n")).toBe(true);
  expect(loadsAjv("import { _, type KeywordCxt } from 'ajv';\n")).toBe(true);
  expect(loadsAjv("import type { ErrorObject } from 'ajv';\n")).toBe(false);
});
