import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** What a module loads as it is loaded: files of src/ (relative to it) and npm packages, by name. */
export interface StartModules {
  files: string[];
  packages: string[];
}

/** `yaml/util` -> `yaml`, `@aws-sdk/client-s3/x` -> `@aws-sdk/client-s3`; Node's own modules: undefined. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Whether an import or export declaration loads its module at run time (not `import type`, not only types). */
function loadsAtRunTime(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return false;
    const clause = node.exportClause;
    return !(clause && ts.isNamedExports(clause) && clause.elements.every((e) => e.isTypeOnly));
  }
  const clause = node.importClause;
  if (!clause) return true; // import './side-effect'
  if (clause.isTypeOnly) return false;
  if (clause.name) return true;
  const bindings = clause.namedBindings;
  return !(bindings && ts.isNamedImports(bindings) && bindings.elements.every((e) => e.isTypeOnly));
}

/**
 * The modules `entry` (a file of src/) loads with it: its top-level value imports and theirs, as
 * far as they go; a `require()` or `import()` inside a function is not followed (it loads when
 * called). An import used only as a type still counts (the compiler would drop it): the set is
 * never smaller than what Node loads, so a module missing from it is never loaded at start.
 */
export function startModules(root: string, entry: string): StartModules {
  const src = join(root, 'src');
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    const key = relative(src, file);
    if (files.has(key)) return;
    files.add(key);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    for (const node of source.statements) {
      if (!(ts.isImportDeclaration(node) || ts.isExportDeclaration(node))) continue;
      if (!node.moduleSpecifier || !ts.isStringLiteral(node.moduleSpecifier) || !loadsAtRunTime(node)) continue;
      const specifier = node.moduleSpecifier.text;
      if (!specifier.startsWith('.')) {
        const name = packageOf(specifier);
        if (name) packages.add(name);
        continue;
      }
      const base = resolve(dirname(file), specifier);
      const target = [`${base}.ts`, join(base, 'index.ts'), base].find((f) => existsSync(f) && f.endsWith('.ts'));
      if (target) visit(target);
      else files.add(relative(src, base)); // JSON and the like: a leaf
    }
  };
  visit(join(src, entry));
  return { files: [...files].sort(), packages: [...packages].sort() };
}
