'use strict';
/**
 * Compiles the service's JSON Schemas once, here, into validator modules (ajv standalone code,
 * https://ajv.js.org/standalone.html): `generated/<schema module>.ts` next to each schema module.
 * The service, the CLI, the playground and every test file load compiled functions instead of
 * running ajv's compiler at import (which cost each Jest test file, in its own module registry,
 * about 150 ms of CPU: a third of the fast lane), and the validators are the very code ajv
 * compiles, so their errors, and the messages built from them, are the same.
 *
 * The generated modules are not committed (.gitignore): `npm run build` and `npm run typecheck`
 * run this first, and so does Jest (globalSetup), so they never lag behind a schema. Each carries
 * the hash of what it was made from (the schema modules with everything they import, ajv and this
 * script, bundled by esbuild); when that is unchanged, nothing is compiled (about 0.3 s).
 */
const { build } = require('esbuild');
const { createHash } = require('node:crypto');
const { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { basename, dirname, join, relative } = require('node:path');

const ROOT = join(__dirname, '..');

/**
 * Each schema module and the validators generated from its exported schemas: name -> the schema's
 * export and, for a type guard, the type a valid document has (and the module declaring it).
 */
const SCHEMA_MODULES = [
  {
    module: 'src/policy/compile/document-schema.ts',
    validators: {
      validatePolicy: { schema: 'policySchema' },
      validateException: { schema: 'exceptionSchema' },
      validateAliases: { schema: 'aliasesSchema' },
      validateExceptionSettings: { schema: 'exceptionSettingsSchema' },
    },
  },
  {
    module: 'src/payload/webhook-payload-schema.ts',
    validators: {
      validateWebhookPayload: { schema: 'webhookPayloadSchema', type: 'WebhookPayload', from: 'src/payload/types.ts' },
    },
  },
  {
    module: 'src/cli/suite/suite-schema.ts',
    validators: {
      validateSuite: { schema: 'suiteSchema', type: 'SuiteDocument', from: 'src/cli/suite/suite-schema.ts' },
    },
  },
  {
    module: 'src/policy/facts/facts-schema.ts',
    validators: {
      validateState: { schema: 'stateFactsSchema' },
      validateFacts: { schema: 'factsSchema' },
      validateEnvironments: { schema: 'environmentFactsShape' },
      validateTeams: { schema: 'teamFactsShape' },
    },
  },
  {
    module: 'src/policy/facts/signal-facts-schema.ts',
    validators: {
      validateSignalFactsDocument: {
        schema: 'SIGNAL_FACTS_SCHEMA',
        type: 'SignalFacts',
        from: 'src/policy/facts/signal-facts.ts',
      },
    },
  },
  {
    module: 'src/signals/signal-sources-file-schema.ts',
    validators: {
      validateSignalSourcesFile: {
        schema: 'signalSourcesFileSchema',
        type: 'SourcesFile',
        from: 'src/signals/signal-sources-file-schema.ts',
      },
    },
  },
  {
    module: 'src/notify/notify-targets-file-schema.ts',
    validators: {
      validateNotifyTargetsFile: {
        schema: 'notifyTargetsFileSchema',
        type: 'NotifyTargetsFile',
        from: 'src/notify/notify-targets-file-schema.ts',
      },
    },
  },
  {
    module: 'src/replay/archive-record-schema.ts',
    validators: {
      validateArchiveRecord: {
        schema: 'archiveRecordSchema',
        type: 'ArchiveRecord',
        from: 'src/archive/archive-record.ts',
      },
    },
  },
];

const outputOf = (module) => join(ROOT, dirname(module), 'generated', basename(module));
/** An import specifier from the generated module of `module` to the source file `target`. */
const importPath = (module, target) => {
  const path = relative(dirname(outputOf(module)), join(ROOT, target)).replace(/\.ts$/, '');
  return path.startsWith('.') ? path : `./${path}`;
};

/** The schema modules with all they import, ajv's compiler and its standalone code generator, as one CommonJS text. */
async function bundleSchemas() {
  const lines = [
    "export { createAjv } from './src/validation/create-ajv.ts';",
    "export { default as standaloneCode } from 'ajv/dist/standalone';",
    ...SCHEMA_MODULES.map((m, i) => `export * as m${i} from './${m.module}';`),
  ];
  const result = await build({
    stdin: { contents: lines.join('\n'), resolveDir: ROOT, sourcefile: 'build-validators-entry.js', loader: 'js' },
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: ['node20'],
    loader: { '.yaml': 'text' },
    write: false,
    logLevel: 'warning',
  });
  return result.outputFiles[0].text;
}

function loadBundle(text) {
  const dir = mkdtempSync(join(tmpdir(), 'build-validators-'));
  try {
    const file = join(dir, 'schemas.js');
    writeFileSync(file, text);
    return require(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of one generated module: ajv's standalone code, then the validators, typed and holding their schema. */
function generatedModule(ajv, standaloneCode, schemas, { module, validators }, hash) {
  const names = Object.keys(validators);
  for (const name of names) ajv.addSchema(schemas[validators[name].schema], `${module}#${name}`);
  const code = standaloneCode(ajv, Object.fromEntries(names.map((n) => [`${n}Untyped`, `${module}#${n}`])));
  const imports = [];
  if (code.includes('STRING_SYNTAXES[')) {
    imports.push(`import { STRING_SYNTAXES } from '${importPath(module, 'src/syntax/string-syntax.ts')}';`);
  }
  imports.push(`import { precompiled, type Validator } from '${importPath(module, 'src/validation/validator.ts')}';`);
  imports.push(
    `import { ${[...new Set(names.map((n) => validators[n].schema))].join(', ')} } from '../${basename(module, '.ts')}';`,
  );
  const types = new Map();
  for (const { type, from } of Object.values(validators)) if (type) types.set(type, from);
  for (const [type, from] of types) imports.push(`import type { ${type} } from '${importPath(module, from)}';`);
  const exports = names.map((n) => {
    const { schema, type = 'unknown' } = validators[n];
    return `export const ${n}: Validator<${type}> = precompiled(${n}Untyped, ${schema});`;
  });
  return [
    '// @ts-nocheck',
    `// Generated by scripts/build-validators.js from ../${basename(module)}: do not edit, do not commit.`,
    `// source: ${hash}`,
    ...imports,
    code.replace(/^"use strict";/, ''),
    ...exports,
    '',
  ].join('\n');
}

/** Writes through a temporary file, so a concurrent reader (another Jest run) never sees half a module. */
function writeAtomically(file, text) {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

const isCurrent = (file, hash) => existsSync(file) && readFileSync(file, 'utf8').includes(`\n// source: ${hash}\n`);

/** Regenerates the validator modules that are missing or were made from other sources; returns those written. */
async function buildValidators() {
  const bundle = await bundleSchemas();
  const hash = createHash('sha256').update(bundle).update(readFileSync(__filename)).digest('hex');
  const stale = SCHEMA_MODULES.filter((m) => !isCurrent(outputOf(m.module), hash));
  if (stale.length === 0) return [];
  const { createAjv, standaloneCode, ...modules } = loadBundle(bundle);
  const ajv = createAjv({ source: true, esm: true, lines: true });
  for (const m of stale) {
    const schemas = modules[`m${SCHEMA_MODULES.indexOf(m)}`];
    writeAtomically(outputOf(m.module), generatedModule(ajv, standaloneCode, schemas, m, hash));
  }
  return stale.map((m) => relative(ROOT, outputOf(m.module)));
}

module.exports = async function globalSetup() {
  await buildValidators();
};

if (require.main === module) {
  buildValidators().then(
    (written) => {
      if (written.length > 0) process.stdout.write(`build-validators: wrote ${written.join(', ')}\n`);
    },
    (err) => {
      process.stderr.write(`build-validators: ${err.stack ?? err.message}\n`);
      process.exit(1);
    },
  );
}
