import { readdirSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

/**
 * A test's lane is in its file name (issue 45 item 5): `<name>.int.test.ts` starts a server or a
 * process and runs in `npm test` only; `<name>.test.ts` starts nothing and runs in `npm run test:unit`
 * too. Nothing else names a test file, so neither lane misses one.
 */
export type Lane = 'unit' | 'int';

const LANE_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*(\.int)?\.test\.ts$/;
/** A name a person or a tool reads as a test file (`.spec.ts`, `.test.js`, `.slow.test.ts`, `.int.ts`), whatever its lane. */
const READS_AS_A_TEST = /\.(?:test|spec|int)\.(?:[a-z]+\.)*[cm]?[jt]sx?$/;

/** The lane of a file under test/, by its name; undefined when it is no test file. */
export function laneOf(path: string): Lane | undefined {
  const name = posix.basename(path);
  const lane = LANE_NAME.exec(name);
  if (!lane) return undefined;
  return lane[1] ? 'int' : 'unit';
}

/** Files (relative to `root`, with `/`) that read as a test but no lane runs: misnamed, or outside test/. */
export function misnamedTests(files: readonly string[]): string[] {
  return files.filter(
    (f) => READS_AS_A_TEST.test(posix.basename(f)) && (!f.startsWith('test/') || laneOf(f) === undefined),
  );
}

/** Every file below `root` (relative, with `/`), leaving out installed, built and hidden folders. */
export function filesBelow(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (!entry.isDirectory()) return [relative(root, path).split(sep).join('/')];
    if (entry.name.startsWith('.') || ['node_modules', 'dist', 'coverage'].includes(entry.name)) return [];
    return filesBelow(root, path);
  });
}

/**
 * What starts a server or a process when a test uses it, so a unit-lane test imports none of it
 * (the lane guard, test/unit-lane-guard.js, catches the rest when the test runs): a module (relative to
 * the repository, without `.ts`) and the exports that start something, or `'*'` for all of them. A new
 * helper that starts something joins this list.
 */
export const STARTERS: Readonly<Record<string, readonly string[] | '*'>> = {
  child_process: '*',
  cluster: '*',
  supertest: '*',
  'test/helpers/child-service': ['startChildService'],
  'test/helpers/fake-github': ['startFakeGitHub'],
  'test/helpers/fake-npm-registry': ['startFakeNpmRegistry', 'packBinPackage'],
  'test/helpers/fake-receiver': ['startFakeReceiver'],
  'test/helpers/fake-steadybit': ['startFakeSteadybit'],
  'test/helpers/fake-steadybit-each-test': ['fakeSteadybitEachTest'],
  'test/helpers/record-archive': ['recordArchive'],
  'test/helpers/run-async': ['runAsync'],
  'test/helpers/server-process': ['startServerProcess', 'freePort'],
  'test/helpers/signed-request': ['signedRequest'],
  'test/helpers/test-certificates': ['testCertificates'],
  'test/helpers/webhook-notifier': ['webhookNotifier'],
  'test/cli/run-cli': ['runCli'],
  'test/guard/guarded-service-each-test': ['guardedServiceEachTest'],
  'test/helm/render-chart': ['helm', 'render', 'renderError'],
  'test/image/buildah': ['buildah'],
  'test/observability/prometheus-server': ['startPrometheus'],
  'test/playground/playground-browser': ['startPlayground', 'launchChromium'],
  'test/release/npm-registry': ['startNpmRegistry'],
  'test/release/oci-registry': ['startOciRegistry'],
  'test/signals/alertmanager-server': ['startAlertmanager'],
  'test/signals/errors-prometheus': ['startErrorsPrometheus'],
  'test/state/redis-server': ['startRedis'],
  'test/state/store-table': ['replicasOnRedis'],
};

/** The module an import names, as STARTERS keys it: `file` is the importing file, relative to the repository. */
function moduleOf(file: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier.replace(/^node:/, '');
  return posix.join(posix.dirname(file), specifier).replace(/\.[cm]?[jt]s$/, '');
}

/** The value imports of a file, read by TypeScript's parser: module specifier -> names bound, `'*'` for a whole module. */
function valueImports(file: string, source: string): [string, string][] {
  const found: [string, string][] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const from = node.moduleSpecifier.text;
      const clause = node.importClause;
      if (clause?.isTypeOnly) return; // erased: starts nothing
      const bindings = clause?.namedBindings;
      if (!clause || clause.name || (bindings && ts.isNamespaceImport(bindings))) found.push([from, '*']);
      if (bindings && ts.isNamedImports(bindings))
        for (const e of bindings.elements) if (!e.isTypeOnly) found.push([from, (e.propertyName ?? e.name).text]);
      return;
    }
    if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    )
      found.push([node.arguments[0].text, '*']);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, source, ts.ScriptTarget.ES2022));
  return found;
}

/** The imports of `source` (the text of `file`) that start a server or a process, as `name from module`. */
export function startingImports(file: string, source: string): string[] {
  return valueImports(file, source).flatMap(([specifier, name]) => {
    const module = moduleOf(file, specifier);
    const starts = STARTERS[module];
    return starts && (starts === '*' || name === '*' || starts.includes(name)) ? [`${name} from ${module}`] : [];
  });
}
