import { isMap, isNode, isScalar, LineCounter, parseAllDocuments, type Document } from 'yaml';
import type { LoadProblem } from './load-error';
import { YAML_ERROR_HINTS } from './indentation-hints';

export interface SourceFile {
  /** How the file is named in messages, e.g. `policies/prod.yaml`. */
  file: string;
  /** Path relative to the policy directory; what the revision hash covers. Defaults to `file`. */
  key?: string;
  text: string;
}

export interface ParsedDocument {
  file: string;
  index: number;
  value: unknown;
  /**
   * Line and column of the node at `path` (or of its deepest existing parent). With `at: 'key'`, of
   * the mapping key naming the last segment: an unknown key is shown where it is written, not
   * where its value (a block on the next lines) starts.
   */
  locate(path: ReadonlyArray<string | number>, at?: 'key' | 'value'): { line: number; col: number };
}

/** Parses a YAML stream into documents that can locate any field path. Syntax errors are problems. */
export function parseYamlSource(source: SourceFile): { documents: ParsedDocument[]; problems: LoadProblem[] } {
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
  streamDocs.forEach((doc, index) => {
    for (const err of [...doc.errors, ...doc.warnings]) {
      const pos = lineCounter.linePos(err.pos[0]);
      problems.push({
        file: source.file,
        line: pos.line,
        col: pos.col,
        path: '',
        message: `YAML ${err instanceof Error && doc.errors.includes(err) ? 'syntax error' : 'warning'}: ${err.message.split('\n')[0]}${YAML_ERROR_HINTS[err.code] ? ` (hint: ${YAML_ERROR_HINTS[err.code]})` : ''}`,
        severity: doc.errors.includes(err) ? 'error' : 'warning',
      });
    }
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
      index,
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
