import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/**
 * The import graph of src/ as madge draws it: each .ts file -> the files it imports, paths relative
 * to src/, type-only and dynamic imports included, npm packages and Node's own modules left out,
 * imported files that are not TypeScript (JSON, YAML) as leaves. Read with TypeScript's import
 * scanner and module resolution under the repository's tsconfig.json: about a second, where madge's
 * full parse of every file takes four (a tenth of the fast lane). import-cycles.test.ts checks that
 * this is madge's graph, edge for edge.
 */
export function srcImportGraph(root: string): Record<string, string[]> {
  const src = join(root, 'src');
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  const host = ts.createCompilerHost(config.options);
  const graph: Record<string, string[]> = {};
  const leaves = new Set<string>();
  for (const file of tsFiles(src).sort()) {
    const imports = new Set<string>();
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      const resolved = ts.resolveModuleName(fileName, file, config.options, host).resolvedModule;
      const plain = fileName.startsWith('.') ? resolve(dirname(file), fileName) : undefined;
      const target = resolved
        ? resolved.isExternalLibraryImport
          ? undefined
          : resolved.resolvedFileName
        : plain !== undefined && existsSync(plain)
          ? plain
          : undefined;
      if (target === undefined) continue;
      imports.add(relative(src, target));
      if (!target.endsWith('.ts')) leaves.add(relative(src, target));
    }
    graph[relative(src, file)] = [...imports].sort();
  }
  for (const leaf of leaves) graph[leaf] ??= [];
  return graph;
}
