import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { DOCUMENT_VALIDATORS } from '../compile/document-validators';
import type { DocumentKind } from '../compile/document-schema';
import { parsePlainYaml } from '../compile/plain-yaml';
import type { ParsedFile } from '../loading/load-bundle';
import { documentReferences, keepReferences } from '../loading/policy-references';
import type { ParseAheadAnswer, ParseAheadChunk } from './parse-ahead';

/**
 * One file read, parsed and its documents' schemas checked, or undefined when the load has to do it
 * itself: the text is not in the plain shape (the `yaml` library is left to the load), holds no
 * document, or a document fails its schema (the load reports it, located). Never throws for a text.
 */
function parseFile(file: string): ParsedFile | undefined {
  const text = readFileSync(file, 'utf8');
  const documents = parsePlainYaml(text);
  if (documents === undefined || documents.length === 0) return undefined;
  for (const { value } of documents) {
    const kind = (value as { kind?: unknown } | null)?.kind;
    if (typeof kind !== 'string' || !Object.hasOwn(DOCUMENT_VALIDATORS, kind)) return undefined;
    if (!DOCUMENT_VALIDATORS[kind as DocumentKind](value)) return undefined;
  }
  // Their references without places, as a load keeps them: no place is asked of these documents.
  const references = keepReferences(
    documentReferences(
      documents.map(({ value }, index) => ({ file, index, value, locate: () => ({ line: 1, col: 1 }) })),
    ),
  );
  // The digest the reloader knows a text by (policy-reloader.ts): node:crypto's SHA-256, in hex.
  return { file, digest: hash('sha256', text, 'hex'), documents, references };
}

/** The worker thread of parse-ahead.ts: a chunk of files, its answer, until it is sent none. */
function main(): void {
  const port = parentPort;
  if (!port) throw new Error('parse-ahead-worker runs as a worker thread');
  port.on('message', (chunk: ParseAheadChunk) => {
    if (chunk === null) return void port.close();
    const parsed: ParsedFile[] = [];
    for (const file of chunk) {
      try {
        const one = parseFile(file);
        if (one) parsed.push(one);
      } catch {
        // An unreadable file (gone since the listing): the load reads it and says why.
      }
    }
    port.postMessage({ parsed } satisfies ParseAheadAnswer);
  });
  port.postMessage({ ready: true } satisfies ParseAheadAnswer);
}

main();
