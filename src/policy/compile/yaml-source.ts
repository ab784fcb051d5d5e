import type { Document } from 'yaml';
import type { LoadProblem } from './load-error';
import type { YAMLError } from 'yaml';
import { YAML_ERROR_HINTS } from './indentation-hints';
import { parsePlainYaml } from './plain-yaml';
import { yamlLibrary } from '../../common/yaml-library';

export interface SourceFile {
  /** How the file is named in messages, e.g. `policies/prod.yaml`. */
  file: string;
  /** Path relative to the policy directory; what the revision hash covers. Defaults to `file`. */
  key?: string;
  text: string;
}

/** Where a document is written: what a loader keeps of it to locate a problem after compiling it. */
export interface DocumentPlace {
  file: string;
  /**
   * Line and column of the node at `path` (or of its deepest existing parent). With `at: 'key'`, of
   * the mapping key naming the last segment: an unknown key is shown where it is written, not
   * where its value (a block on the next lines) starts.
   */
  locate(path: ReadonlyArray<string | number>, at?: 'key' | 'value'): { line: number; col: number };
}

export interface ParsedDocument extends DocumentPlace {
  /** Its position among the file's documents that have content. */
  index: number;
  value: unknown;
}

/**
 * The place of the `index`th document of `source` (among those with content), which starts at
 * `start`: anything but its start is located by parsing the file with `yaml` when first asked
 * (then kept). It holds the text, not the document's value or syntax tree.
 */
export function documentPlace(source: SourceFile, index: number, start: { line: number; col: number }): DocumentPlace {
  let located: ParsedDocument | null | undefined;
  return {
    file: source.file,
    locate(path, at = 'value') {
      if (path.length === 0) return { line: start.line, col: start.col };
      located ??= parseWithPositions(source).documents[index] ?? null;
      return located ? located.locate(path, at) : { line: start.line, col: start.col };
    },
  };
}

/**
 * Parses a YAML stream into documents that can locate any field path. Syntax errors are problems.
 * A file in the plain shape (plain-yaml.ts) is read without the `yaml` library; the first `locate`
 * of anything but a document's start parses it with `yaml` (once per file), so only a file with a
 * problem to show pays for the source positions.
 */
export function parseYamlSource(source: SourceFile): { documents: ParsedDocument[]; problems: LoadProblem[] } {
  const plain = parsePlainYaml(source.text);
  if (plain === undefined) return parseWithPositions(source);
  const documents = plain.map((doc, index): ParsedDocument => {
    const place = documentPlace(source, index, { line: doc.line, col: doc.col });
    return { file: source.file, index, value: doc.value, locate: place.locate };
  });
  return { documents, problems: [] };
}

/** The same with the `yaml` library: every node with its source range, every syntax error and warning. */
export function parseWithPositions(source: SourceFile): { documents: ParsedDocument[]; problems: LoadProblem[] } {
  const { isMap, isNode, isScalar, LineCounter, parseAllDocuments } = yamlLibrary();
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(source.text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const problems: LoadProblem[] = [];
  const documents: ParsedDocument[] = [];
  const streamDocs: Document[] = Array.isArray(docs) ? docs : [];
  if (!Array.isArray(docs)) {
    problems.push({
      file: source.file,
      line: 1,
      col: 1,
      path: '',
      message: 'not a YAML document stream',
      severity: 'error',
    });
  }
  // Where the text ends: a parser error there means something opened before it was never closed.
  const contentEnd = source.text.trimEnd().length;
  const yamlProblem = (err: YAMLError, severity: 'error' | 'warning', more = 0): LoadProblem => {
    const atEnd = err.pos[0] >= contentEnd;
    const pos = lineCounter.linePos(atEnd ? Math.max(contentEnd - 1, 0) : err.pos[0]);
    const hint = atEnd ? 'the file ends before a {, [ or quote opened earlier is closed' : YAML_ERROR_HINTS[err.code];
    const after =
      more > 0
        ? `; ${more} more syntax error${more === 1 ? '' : 's'} after it, which most often follow from this one`
        : '';
    return {
      file: source.file,
      line: pos.line,
      col: pos.col,
      path: '',
      message: `YAML ${severity === 'error' ? 'syntax error' : 'warning'}${atEnd ? ' at the end of the file' : ''}: ${err.message.split('\n')[0]}${hint ? ` (hint: ${hint})` : ''}${after}`,
      severity,
    };
  };
  streamDocs.forEach((doc) => {
    // The first syntax error of a document: the parser's later ones mostly follow from it (one
    // stray { turned a 162-line suite into 463 errors), so they are counted, not listed.
    const [first, ...rest] = doc.errors;
    if (first) problems.push(yamlProblem(first, 'error', rest.length));
    for (const warning of doc.warnings) problems.push(yamlProblem(warning, 'warning'));
    if (doc.errors.length > 0) return;
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (err) {
      // An alias bomb ("excessive alias count") is a problem of this file, never a crash of a reload.
      const pos = lineCounter.linePos(doc.range?.[0] ?? 0);
      problems.push({
        file: source.file,
        line: pos.line,
        col: pos.col,
        path: '',
        message: `YAML error: ${(err as Error).message}`,
        severity: 'error',
      });
      return;
    }
    if (value === null || value === undefined) return; // an empty document (e.g. after a trailing ---)
    documents.push({
      file: source.file,
      index: documents.length,
      value,
      locate(path, at = 'value') {
        const position = (range: readonly number[]) => {
          const pos = lineCounter.linePos(range[0]);
          return { line: pos.line, col: pos.col };
        };
        if (at === 'key' && path.length > 0) {
          const parent = path.length === 1 ? doc.contents : doc.getIn(path.slice(0, -1), true);
          const pair = isMap(parent)
            ? parent.items.find((p) => String(isScalar(p.key) ? p.key.value : p.key) === String(path[path.length - 1]))
            : undefined;
          if (isNode(pair?.key) && pair.key.range) return position(pair.key.range);
        }
        for (let n = path.length; n >= 0; n--) {
          const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
          if (isNode(node) && node.range) return position(node.range);
        }
        return { line: 1, col: 1 };
      },
    });
  });
  return { documents, problems };
}
