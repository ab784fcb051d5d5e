'use strict';
/**
 * Builds the playground page (docs/playground.md) into dist/playground/page/: the policy engine of
 * src/ and the editor (CodeMirror 6), bundled for the browser by esbuild, next to index.html and
 * playground.css. Everything the page needs is in that folder: no CDN, it works offline.
 *
 * The engine must stay free of Node: an import of a Node built-in (node:fs, node:crypto, ...)
 * anywhere below the page's entry fails this build, naming the importer.
 */
const { build } = require('esbuild');
const { builtinModules } = require('node:module');
const { copyFileSync, mkdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const PAGE = join(ROOT, 'src', 'playground', 'page');
const OUT = join(ROOT, 'dist', 'playground', 'page');
/** The bundle is parsed on every page load; past this it no longer loads in well under a second. */
const MAX_BYTES = 1_500_000;

const nodeBuiltIns = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** Fails the build on any Node built-in, saying who imports it. */
const noNodeImports = {
  name: 'no-node-imports',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (!nodeBuiltIns.has(args.path)) return undefined;
      return {
        errors: [
          {
            text: `${args.path} is a Node built-in, imported by ${args.importer}: the playground runs the engine in a browser, keep Node-only code out of src/policy, src/payload and src/playground`,
          },
        ],
      };
    });
  },
};

async function main() {
  mkdirSync(OUT, { recursive: true });
  await build({
    entryPoints: [join(PAGE, 'main.ts')],
    outfile: join(OUT, 'playground.js'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: ['es2022'],
    minify: true,
    legalComments: 'linked',
    loader: { '.yaml': 'text' },
    plugins: [noNodeImports],
    logLevel: 'warning',
  });
  for (const file of ['index.html', 'playground.css']) copyFileSync(join(PAGE, file), join(OUT, file));
  const size = statSync(join(OUT, 'playground.js')).size;
  if (size > MAX_BYTES) throw new Error(`playground.js is ${size} bytes, more than ${MAX_BYTES}: keep the page small`);
}

main().catch((err) => {
  process.stderr.write(`build-playground: ${err.message}\n`);
  process.exit(1);
});
